/// `geofence poi ACTION --help`: each action's own help, with only the options it takes.
extension PoiCommand {
    static func help(forPositionals words: [String]) -> String {
        // The first word naming an action (an option's value may come before it).
        guard let action = words.lazy.compactMap({ Action(rawValue: $0) }).first else { return help }
        let file = """
            Reads a POI CSV (columns found by header name: lat, lon, name, and any of osm_type,
            osm_id, category and tag columns such as amenity, shop, brand; see Data/README.md).
            FILE may be '-' for standard input. A bad row ends the run with status 1 and
            FILE:LINE:COLUMN: message on standard error, unless --skip-invalid.

            """
        let search = """
              --category C    fuel, pharmacy, grocery, bank, atm or post_office (any case; a space
                              or a hyphen for the underscore: "post office").
              --lat L, --lon L
                              The location, degrees.
              --limit K       Number of POIs, 1...10000 (default 5).
              --max-km D      Only POIs within D kilometers (default: no limit).

            """
        let common = """
              --skip-invalid  Skip bad rows (each reported on standard error) and count them.
              -h, --help      Show this help.

            """
        let areas = """
              --areas A       The POI outlines written with FILE by 'scripts/osm-pois --areas
                              A': feature id = the POI's 0-based row in FILE, properties
                              osm_type, osm_id and category equal to the row's. A feature
                              that disagrees with FILE ends the run with status 1 and
                              A:LINE:COLUMN: feature N at JSON-PATH: message.

            """
        switch action {
        case .stats:
            return """
                USAGE: geofence poi stats [--areas AREAS.geojson] [--skip-invalid] [--json] FILE

                Rows loaded, POIs per category, rows skipped by reason, duplicate (osm_type, osm_id)
                pairs, bounding box; with --areas, the outlines matched to POIs, how many of those
                POIs have a task category, and how many outlines are unused.

                """ + file + "OPTIONS:\n" + """
                      --json          One JSON object instead of text: "rows" is the number of POIs
                                      loaded and "skipped" maps reasons to counts.

                    """ + areas + common
        case .nearest:
            return """
                USAGE: geofence poi nearest --category C --lat L --lon L [--limit K] [--max-km D]
                                            [--skip-invalid] [--json] FILE

                The K POIs of category C nearest to (L, L), within D km, as CSV
                rank,distance_m,poi_id,osm_type,osm_id,name,category,lat,lon (distance in meters
                on the sphere of radius 6371008.8 m, to 0.1 m; poi_id = 0-based position among the
                POIs loaded).

                """ + file + "OPTIONS:\n" + search + """
                      --json          JSON instead of CSV.

                    """ + common
        case .fences:
            return """
                USAGE: geofence poi fences --category C --lat L --lon L [--limit K] [--max-km D]
                                           [--areas AREAS.geojson [--polygons-out P.geojson]]
                                           [--skip-invalid] FILE

                The tiered fences of the task "near a C" for the K nearest POIs of category C, as
                fences.csv id,lat,lon,radius_m,poi_id,tier (docs/WORKLOADS.md): approach rings of
                5, 3 and 1 miles per POI (tier 0 = the 1-mile ring), the file 'geofence draw'
                draws. With --areas, a POI with an outline also gets an arrival fence that is the
                outline: its row is the outline's minimum enclosing circle (the circle the OS
                watches) at tier 0, its rings after it, and a last column outline gives the
                outline's feature id (empty for circle fences).

                """ + file + "OPTIONS:\n" + search + areas + """
                      --polygons-out P
                                      Also write the outline fences to P as GeoJSON, feature id =
                                      fence id: with the CSV, the fences and polygons that
                                      'geofence-bench transitions' and 'geofence draw' read.

                    """ + common
        }
    }
}
