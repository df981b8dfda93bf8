/// What the OS says about the app at a decision: permissions and whether it is in the
/// foreground. The app builds it from the OS's settings (Core Location and notification
/// permissions, the application state); tests and the benchmark build it by hand.
public struct AppContext: Hashable, Sendable, Codable {
    /// Location permission (any level that delivers region events).
    public var hasLocationPermission: Bool
    /// Permission to show notifications.
    public var hasNotificationPermission: Bool
    /// The app is on screen: nudges go in-app, at once, without bundling.
    public var isForeground: Bool

    /// A context; by default both permissions and the app in the background.
    public init(hasLocationPermission: Bool = true, hasNotificationPermission: Bool = true, isForeground: Bool = false) {
        self.hasLocationPermission = hasLocationPermission
        self.hasNotificationPermission = hasNotificationPermission
        self.isForeground = isForeground
    }

    /// Both permissions, app in the background: the usual case for a geofence event.
    public static let background = AppContext()
}
