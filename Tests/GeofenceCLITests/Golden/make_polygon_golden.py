#!/usr/bin/env python3
"""Golden files of `geofence contains` and `geofence cover --polygons`, answered by Google S2.

Takes every 10th polygon of ../../GeoCellsTests/Fixtures/s2_polygons.txt and the synthetic hard
cases (ids 1, 2, ... in that order; string ids for the synthetic ones), writes them as a GeoJSON
FeatureCollection (polygons.geojson; rings closed, [lon, lat], MultiPolygon when there are several
rings), 6 points per polygon (points.csv: point,lat,lon), and S2's answers from
scripts/s2-oracle/s2_polygon_oracle.cpp (libs2-dev 0.10.0):
  contains_expected.csv             point,polygon per containment (points in order, then polygons)
  cover_polygons_expected_A.csv     --max-cells 8
  cover_polygons_expected_B.csv     --max-cells 16 --min-level 4 --max-level 16
  cover_polygons_expected_C.csv     --max-cells 8 --max-level 20 --interior
"""
import glob, json, os, random, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
FIXTURES = os.path.join(ROOT, "Tests", "GeoCellsTests", "Fixtures")


def polygons():
    words = open(os.path.join(FIXTURES, "s2_polygons.txt")).read().split()
    out, i = [], 0
    while i < len(words):
        pid, n = words[i + 1], int(words[i + 2]); i += 3
        rings = []
        for _ in range(n):
            m = int(words[i + 1]); i += 2
            rings.append([(float(words[i + 2 * k]), float(words[i + 2 * k + 1])) for k in range(m)]); i += 2 * m
        out.append((pid, rings))
    return out


def main():
    rng = random.Random(7)
    chosen = []
    for k, (pid, rings) in enumerate(polygons()):
        if pid.startswith("invalid"):
            continue
        if pid.startswith("osm_") and k % 10 != 0:
            continue
        if pid in ("sliver", "sliver_long"):
            continue  # interior coverings of slivers take minutes in S2 itself
        if pid.startswith("random_") and k % 4 != 0:
            continue
        chosen.append((pid, rings))
    features, text, pts = [], [], []
    for n, (pid, rings) in enumerate(chosen):
        fid = n + 1 if pid.startswith("osm_") else pid
        closed = [[[lon, lat] for lat, lon in r] + [[r[0][1], r[0][0]]] for r in rings]
        geom = ({"type": "Polygon", "coordinates": closed} if len(rings) == 1 else
                {"type": "MultiPolygon", "coordinates": [[r] for r in closed]})
        features.append({"type": "Feature", "id": fid, "properties": {"source": pid}, "geometry": geom})
        text.append("polygon %s %d\n" % (fid, len(rings)) + "".join(
            "ring %d\n" % len(r) + "".join("%.17g %.17g\n" % p for p in r) for r in rings))
        lats = [p[0] for r in rings for p in r]; lons = [p[1] for r in rings for p in r]
        ref = lons[0]; un = [ref + ((x - ref + 180) % 360) - 180 for x in lons]
        for j in range(6):
            lat = rng.uniform(min(lats), max(lats)); lon = ((rng.uniform(min(un), max(un)) + 180) % 360) - 180
            pts.append(("p%d_%d" % (n + 1, j), lat, lon))
    with open(os.path.join(HERE, "polygons.geojson"), "w") as f:
        f.write('{"type": "FeatureCollection", "features": [\n')
        f.write(",\n".join(json.dumps(x, separators=(",", ":")) for x in features))
        f.write("\n]}\n")
    with open(os.path.join(HERE, "points.csv"), "w") as f:
        f.write("point,lat,lon\n")
        for name, lat, lon in pts:
            f.write("%s,%.15g,%.15g\n" % (name, lat, lon))
    with tempfile.TemporaryDirectory() as tmp:
        absl = sorted({"-l" + os.path.basename(p)[3:-3] for p in glob.glob("/usr/lib/*/libabsl_*.so")})
        exe = os.path.join(tmp, "oracle")
        subprocess.run(["g++", "-O2", "-std=c++17", "-o", exe,
                        os.path.join(ROOT, "scripts", "s2-oracle", "s2_polygon_oracle.cpp"), "-ls2"] + absl, check=True)
        ptext = os.path.join(tmp, "p.txt"); open(ptext, "w").write("".join(text))
        qtext = os.path.join(tmp, "q.txt")
        ids = [str(n + 1) if pid.startswith("osm_") else pid for n, (pid, _) in enumerate(chosen)]
        with open(qtext, "w") as f:
            for name, lat, lon in pts:
                for fid in ids:
                    f.write("%s %s %.17g %.17g\n" % (fid, name, lat, lon))
        rows = subprocess.run([exe, "contains", ptext, qtext], check=True, capture_output=True, text=True).stdout.split("\n")[1:]
        inside = {(r.split(",")[1], r.split(",")[0]) for r in rows if r and r.split(",")[2] == "1"}
        with open(os.path.join(HERE, "contains_expected.csv"), "w") as f:
            f.write("point,polygon\n")
            for name, _, _ in pts:
                for fid in ids:
                    if (name, fid) in inside:
                        f.write("%s,%s\n" % (name, fid))
        for suffix, args in [("A", ["8", "0", "30", "1", "exterior"]), ("B", ["16", "4", "16", "1", "exterior"]),
                             ("C", ["8", "0", "20", "1", "interior"])]:
            out = subprocess.run([exe, "cover", ptext] + args, check=True, capture_output=True, text=True).stdout
            open(os.path.join(HERE, "cover_polygons_expected_%s.csv" % suffix), "w").write(out)
    print("%d polygons, %d points" % (len(chosen), len(pts)))


if __name__ == "__main__":
    main()
