// Placeholder; filled in by the POI work (issue 5).
