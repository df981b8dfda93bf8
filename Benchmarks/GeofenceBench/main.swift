print("geofence-bench: not yet implemented")
