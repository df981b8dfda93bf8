import Foundation
@testable import Geofencing

/// `config` encoded as JSON with the `absent` keys removed, then decoded again (the decoding
/// error, if any, is thrown).
func decodedWithout(_ absent: [String], from config: TransitionDetectorConfiguration) throws -> TransitionDetectorConfiguration {
    let encoded = try JSONSerialization.jsonObject(with: try JSONEncoder().encode(config))
    guard var object = encoded as? [String: Any] else {
        throw DecodingError.typeMismatch([String: Any].self, .init(codingPath: [], debugDescription: "not a JSON object"))
    }
    for key in absent { object[key] = nil }
    return try JSONDecoder().decode(TransitionDetectorConfiguration.self, from: try JSONSerialization.data(withJSONObject: object))
}
