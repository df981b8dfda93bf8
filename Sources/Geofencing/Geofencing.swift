// Placeholder; filled in by the geofence-engine work (issue 4).
