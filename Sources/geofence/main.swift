print("geofence: not yet implemented")
