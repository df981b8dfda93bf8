#!/usr/bin/env python3
"""Regenerates the cell/cover golden files and the distance oracle sample from the reference
vectors in the repository (Tests/GeoCellsTests/Fixtures, Tests/GeodesyTests/Fixtures).

Run from this folder: python3 make_golden.py
(distance_expected.csv is not made here: it is the tool's own output, see README.md.)
"""
import csv, json, sys

if len(sys.argv) != 1:
    sys.exit("usage: python3 make_golden.py (from Tests/GeofenceCLITests/Golden)")
s2 = "../../GeoCellsTests/Fixtures"
distances = "../../GeodesyTests/Fixtures"

def token(i):
    if i == 0:
        return "X"
    h = "%016x" % i
    return h.rstrip("0")

# --- cell: a few rows of every category of s2_points.csv
rows = list(csv.DictReader(open(f"{s2}/s2_points.csv")))
picked, per = [], {}
for r in rows:
    c = r["category"]
    if per.get(c, 0) < 3:
        per[c] = per.get(c, 0) + 1
        picked.append(r)
with open("cell_input.csv", "w") as f:
    f.write("lat,lon\n")
    for r in picked:
        f.write(f"{r['lat']},{r['lon']}\n")
with open("cell_input_noheader.csv", "w") as f:
    for r in picked:
        f.write(f"{r['lat']},{r['lon']}\r\n")  # CRLF, no header
for level, col in [(30, "id_l30"), (13, "id_l13"), (0, "id_l0")]:
    with open(f"cell_expected_l{level}.csv", "w") as f:
        f.write("id,token\n")
        for r in picked:
            i = int(r[col])
            f.write(f"{i},{token(i)}\n")

# --- cover: caps of several categories, 4 settings
caps, seen = {}, {}
lines = [json.loads(l) for l in open(f"{s2}/s2_covers.jsonl")]
for d in lines:
    c = d["category"]
    if d["cap_id"] not in caps and seen.get(c, 0) < 2:
        seen[c] = seen.get(c, 0) + 1
        caps[d["cap_id"]] = d
order = sorted(caps)
with open("cover_input.csv", "w") as f:
    f.write("lat,lon,radius_m\n")
    for cid in order:
        d = caps[cid]
        f.write(f"{d['lat']!r},{d['lon']!r},{d['radius_m']!r}\n")
for d in lines:
    if d["cap_id"] in caps:
        caps[d["cap_id"]].setdefault("by_setting", {})[d["setting"]] = d
for setting in ["A_cover_max8", "B_cover_max16_L10_16", "C_interior_max8", "D_interior_max16_L10_16"]:
    with open(f"cover_expected_{setting}.txt", "w") as f:
        for cid in order:
            d = caps[cid]["by_setting"][setting]
            ids = sorted(int(x) for x in d["cell_ids"])
            f.write(" ".join(token(i) for i in ids) + "\n")

# --- distance oracle sample: 200 rows of distances.csv
drows = list(csv.DictReader(open(f"{distances}/distances.csv")))
step = max(1, len(drows) // 200)
with open("../Fixtures/distances_sample.csv", "w") as f:
    f.write("lat1,lon1,lat2,lon2,haversine_m,sphere_azi1_deg,bearing_defined\n")
    for r in drows[::step][:200]:
        f.write(",".join(r[k] for k in ["lat1", "lon1", "lat2", "lon2", "haversine_m", "sphere_azi1_deg", "bearing_defined"]) + "\n")
