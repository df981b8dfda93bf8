"""Hard synthetic polygons for the S2 oracle: the classes that break polygon code (antimeridian, poles, near-hemispheres, slivers, long rings, holes, many parts), drawn from a seed.

Used by `make-polygon-fixtures --hard`. cases(rng) returns (name, rings, expect) with rings of
[lat, lon] degrees (open) and expect one of valid / invalid / ? (the oracle decides; "?" marks
cases built to probe a rule, e.g. rings touching at a vertex). The families: continent-sized
concave stars (one over a quarter of the sphere, three within 1 degree of a hemisphere), great
circles (the equator in both orientations, a tilted one), loops around each pole in both
orientations (60, 85, 89.99 degrees; vertices exactly at +-90), the antimeridian (179.9 to
-179.9, exactly +-180, RFC 7946's cut into two parts), 2,000- and 10,000-vertex stars and
noisy circles, slivers 1 m and 1 cm wide and 1 or 100 km long, holes (49 in one shell, one in a
polar cap, one outside its shell), 100-part multipolygons, nearly collinear vertices (1e-12
degrees off a line, points along a great circle), 1 cm and 1 micrometre triangles, and invalid
rings (bow-tie, duplicate vertices, figure eight, rings crossing or touching at a vertex,
rings sharing an edge, a ring repeated, a hole crossing its shell, antipodal vertices), and
rings of radius 90 degrees + delta (delta from -1e-13 to 1e-12 radians, 8 to 1,000 vertices).
points(rng, rings, count) gives count random points in the polygon's bounding cap, count
points 1 mm to 100 m either side of random edges, count // 2 points 1.5 mm to 1 m from random
vertices, and the first 5 vertices of each ring (on the boundary).
cases3(rng, random_count) and points3(rng, rings, count) are the third round (the cube: corners,
face edges, S2 cells as loops, shared vertices, polar annuli, lattice fuzz; see cases3's
docstring), kept apart so that cases() and points() give the same output for a seed as before.
"""
import math, os, random


R = 6371008.8


def norm(v):
    n = math.sqrt(sum(x * x for x in v))
    return [x / n for x in v]


def to_v(lat, lon):
    a, b = math.radians(lat), math.radians(lon)
    return [math.cos(a) * math.cos(b), math.cos(a) * math.sin(b), math.sin(a)]


def to_ll(v):
    return [math.degrees(math.atan2(v[2], math.hypot(v[0], v[1]))), math.degrees(math.atan2(v[1], v[0]))]


def cross(a, b):
    return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]


def add(a, b, s=1.0):
    return [a[i] + s * b[i] for i in range(3)]


def dot(a, b):
    return sum(a[i] * b[i] for i in range(3))


def tangent_frame(c):
    t = [0, 0, 1] if abs(c[2]) < 0.9 else [1, 0, 0]
    e1 = norm(cross(c, t))
    e2 = cross(c, e1)
    return e1, e2


def circle_ring(c, r_rad, n, rng, noise=0.0, spike=0.0, waves=0, ccw=True):
    """A ring around unit vector c at angular radius r (optionally perturbed)."""
    e1, e2 = tangent_frame(c)
    pts = []
    for k in range(n):
        a = 2 * math.pi * k / n
        r = r_rad * (1 + noise * (rng.random() - 0.5) + (0.25 * math.sin(waves * a) if waves else 0))
        if spike and k % 2:
            r *= 1 - spike * rng.random()
        d = add([math.cos(a) * x for x in e1], [math.sin(a) * x for x in e2])
        p = add([math.cos(r) * x for x in c], [math.sin(r) * x for x in d])
        pts.append(to_ll(p))
    if not ccw:
        pts.reverse()
    return pts


def ll_circle(lat, lon, r_deg, n, rng, **kw):
    return circle_ring(to_v(lat, lon), math.radians(r_deg), n, rng, **kw)


def wrap(lon):
    return ((lon + 180) % 360) - 180


def cases(rng, random_count=0):
    out = []

    def add_case(name, rings, expect="valid"):
        out.append((name, [[[float(a), float(b)] for a, b in ring] for ring in rings], expect))

    # Continental, concave.
    for i in range(6):
        lat, lon = rng.uniform(-60, 60), rng.uniform(-180, 180)
        r = rng.choice([15, 30, 45, 60])
        add_case("continent_star_%d" % i, [ll_circle(lat, lon, r, rng.choice([50, 300, 1200]), rng, spike=0.7, ccw=rng.random() < 0.5)])
    add_case("quarter_plus", [ll_circle(10, 20, 65, 400, rng, noise=0.05, waves=9)])  # > quarter sphere
    add_case("near_hemisphere_89_9", [ll_circle(-20, 100, 89.9, 360, rng, noise=0.0005)])
    add_case("near_hemisphere_89_9_cw", [ll_circle(30, -60, 89.9, 360, rng, noise=0.0005, ccw=False)])
    add_case("near_hemisphere_89_99_concave", [ll_circle(5, 5, 89.0, 1000, rng, spike=0.02)])
    add_case("equator_ring_ccw", [[[0.0, -180 + 10 * k] for k in range(36)]])
    add_case("equator_ring_cw", [[[0.0, 180 - 10 * k] for k in range(36)]])
    add_case("great_circle_tilted", [circle_ring(norm([1, 2, 3]), math.pi / 2, 64, rng)])
    add_case("c_shape_continent", [[[50, -120], [50, 60], [40, 60], [40, -110], [-40, -110], [-40, 60], [-50, 60], [-50, -120]]])

    # Poles, both orientations.
    for lat in (60, 85, 89.99):
        for sgn in (1, -1):
            ring = [[sgn * lat, -180 + 7.5 * k] for k in range(48)]
            add_case("pole_%s_%g_ccw" % ("n" if sgn > 0 else "s", lat), [ring])
            add_case("pole_%s_%g_cw" % ("n" if sgn > 0 else "s", lat), [ring[::-1]])
    add_case("pole_vertex_n", [[[90, 0], [80, -30], [80, 30]]])
    add_case("pole_vertex_s", [[[-90, 0], [-80, 30], [-80, -30]]])
    add_case("pole_vertex_n_lon180", [[[90, 180], [85, 170], [85, -170]]])
    add_case("pole_rfc_cut_cap", [[[80, -180 + 10 * k] for k in range(37)] + [[90, 180], [90, -180]]], "?")
    add_case("pole_around_1e-6", [ll_circle(90, 0, 1e-6, 12, rng)])
    add_case("pole_south_dense", [ll_circle(-90, 0, 20, 2000, rng, noise=0.01)])

    # Antimeridian.
    add_case("am_box_179_9", [[[-5, 179.9], [-5, -179.9], [5, -179.9], [5, 179.9]]])
    add_case("am_box_180_exact", [[[-5, 180], [-5, -170], [5, -170], [5, 180]]])
    add_case("am_box_minus180_exact", [[[-5, 170], [-5, -180], [5, -180], [5, 170]]])
    add_case("am_box_pm180_mix", [[[-5, 170], [-5, 180], [0, -180], [5, -180], [5, 170]]], "?")
    add_case("am_star", [[[a, wrap(b)] for a, b in ll_circle(-20, 180, 5, 301, rng, spike=0.6)]])
    add_case("am_cut_multipolygon", [[[-5, 170], [-5, 180], [5, 180], [5, 170]], [[-5, -180], [-5, -170], [5, -170], [5, -180]]], "?")
    add_case("am_long_band", [[[60, 150], [60, -150], [61, -150], [61, 150]]])
    add_case("am_2000", [[[a, wrap(b)] for a, b in ll_circle(65, 179.95, 0.3, 2000, rng, noise=0.2)]])

    # Big rings.
    for n, r in ((2000, 0.01), (2000, 3.0), (10000, 0.002), (10000, 20.0)):
        c = (rng.uniform(-70, 70), rng.uniform(-180, 180))
        add_case("star_%d_%g" % (n, r), [ll_circle(c[0], c[1], r, n, rng, spike=0.5)])
        add_case("noisy_%d_%g" % (n, r), [ll_circle(c[0], -c[1], r, n, rng, noise=0.05, waves=13, ccw=False)])

    # Slivers: 1 m and 1 cm wide, 1 km and 100 km long.
    for w in (1.0, 0.01):
        for length in (1e3, 1e5):
            lat, lon = rng.uniform(-60, 60), rng.uniform(-180, 180)
            c = to_v(lat, lon)
            e1, e2 = tangent_frame(c)
            ang = rng.uniform(0, math.pi)
            d = norm(add([math.cos(ang) * x for x in e1], [math.sin(ang) * x for x in e2]))
            nrm = cross(c, d)
            half = length / 2 / R
            hw = w / 2 / R
            a = add([math.cos(half) * x for x in c], [math.sin(half) * x for x in d])
            b = add([math.cos(half) * x for x in c], [-math.sin(half) * x for x in d])
            m1 = norm(add(c, nrm, hw))
            m2 = norm(add(c, nrm, -hw))
            add_case("sliver_%gm_%gkm" % (w, length / 1000), [[to_ll(a), to_ll(m1), to_ll(b), to_ll(m2)]])
            # rectangle sliver
            a1, a2 = norm(add(a, nrm, hw)), norm(add(a, nrm, -hw))
            b1, b2 = norm(add(b, nrm, hw)), norm(add(b, nrm, -hw))
            add_case("sliver_rect_%gm_%gkm" % (w, length / 1000), [[to_ll(a2), to_ll(a1), to_ll(b1), to_ll(b2)]])

    # Holes.
    add_case("hole_center", [ll_circle(30, 30, 1, 40, rng), ll_circle(30, 30, 0.3, 30, rng, ccw=False)])
    holes = [ll_circle(-33, 151, 2.0, 64, rng)]
    for i in range(7):
        for j in range(7):
            holes.append(ll_circle(-33 + (i - 3) * 0.45, 151 + (j - 3) * 0.5, 0.12, 8, rng, ccw=False))
    add_case("holes_49", holes)
    add_case("hole_same_orientation", [ll_circle(-10, -50, 1, 40, rng), ll_circle(-10, -50, 0.5, 30, rng)])
    add_case("hole_in_polar", [[[70, -180 + 10 * k] for k in range(36)], ll_circle(80, 40, 2, 20, rng)])
    add_case("hole_outside_shell", [ll_circle(0, 100, 1, 20, rng), ll_circle(0, 110, 1, 20, rng, ccw=False)], "?")
    parts = []
    for i in range(10):
        for j in range(10):
            parts.append(ll_circle(45 + i * 0.1, 7 + j * 0.1, 0.03, rng.choice([4, 5, 9]), rng))
    add_case("multipart_100", parts)
    add_case("multipart_antimeridian_polar", [[[a, wrap(b)] for a, b in ll_circle(-70, 180, 3, 50, rng)],
                                              [[88, -180 + 30 * k] for k in range(12)],
                                              ll_circle(0, 0, 10, 30, rng)])

    # Vertices at +-90 / +-180, nearly collinear vertices.
    add_case("lon180_vertices", [[[10, 180], [10, -175], [20, -175], [20, 180], [15, 180 - 1e-9]]], "?")
    add_case("lat90_exact_box", [[[90, 0], [60, 0], [60, 90]]])
    col = []
    for k in range(200):
        col.append([10 + 1e-12 * rng.uniform(-1, 1), -20 + k * 0.01])
    col += [[10.5, -20 + 199 * 0.01], [10.5, -20]]
    add_case("nearly_collinear", [col])
    col2 = [[0.0, 0.0], [1e-13, 1.0], [0.0, 2.0], [1.0, 1.0]]
    add_case("nearly_collinear_tiny", [col2])
    gc = []  # points along a great circle, displaced 1e-15 rad
    a, b = norm(to_v(10, 10)), norm(to_v(20, 40))
    for k in range(100):
        t = k / 100
        p = norm(add([(1 - t) * x for x in a], [t * x for x in b]))
        gc.append(to_ll(p))
    gc.append(to_ll(norm(to_v(30, 20))))
    add_case("great_circle_points", [gc])
    add_case("tiny_triangle_1cm", [ll_circle(51.5, -0.12, 0.01 / R * 180 / math.pi, 3, rng)])
    add_case("tiny_triangle_1um", [ll_circle(51.5, -0.12, 1e-6 / R * 180 / math.pi, 3, rng)], "?")

    # Invalid ones.
    add_case("inv_bowtie_big", [[[0, 0], [40, 40], [0, 40], [40, 0]]], "invalid")
    add_case("inv_self_cross_2000", [ll_circle(20, 20, 1, 2000, rng)[:1000] + ll_circle(20, 20.5, 1, 2000, rng)[1000:]], "invalid")
    add_case("inv_dup_nonadjacent", [[[0, 0], [0, 1], [1, 1], [0, 1.0], [-1, 0.5]]], "invalid")
    add_case("inv_dup_adjacent", [[[0, 0], [0, 1], [0, 1], [1, 1]]], "invalid")
    add_case("inv_dup_pole_lons", [[[90, 0], [80, 0], [80, 90], [90, 90]]], "invalid")
    add_case("inv_figure8_shared_vertex", [[[0, 0], [1, 1], [2, 0], [2, 2], [1, 1], [0, 2]]], "invalid")
    add_case("inv_rings_cross_at_vertex", [[[0, 0], [0, 2], [1, 1], [2, 2], [2, 0]], [[1, 1], [3, 0.5], [3, 1.5]]], "?")
    add_case("inv_rings_cross_at_vertex2", [[[0, 0], [0, 4], [4, 4], [4, 0]], [[2, 2], [3, 3], [3, 1]], [[2, 2], [1, 1], [1, 3]]], "?")
    add_case("inv_vertex_on_other_rings_edge", [[[0, 0], [0, 4], [4, 4], [4, 0]], [[2, 0], [3, 1], [1, 1]]], "?")
    add_case("inv_rings_cross_at_vertex_x", [[[0, 0], [2, 2], [0, 4], [-2, 2]], [[2, 2], [4, 0], [4, 4], [0, 2]]], "?")
    add_case("inv_rings_cross_at_two_vertices", [[[0, 0], [0, 2], [2, 2], [2, 0]], [[0, 0], [-1, 3], [2, 2], [1.2, 0.8]]], "invalid")
    add_case("ok_hole_touches_shell_at_vertex", [[[0, 0], [0, 2], [2, 2], [2, 0]], [[0, 0], [1, 1.5], [1.5, 1]]])
    add_case("inv_shared_edge_parts", [[[0, 0], [0, 1], [1, 1], [1, 0]], [[0, 1], [0, 2], [1, 2], [1, 1]]], "?")
    add_case("inv_shared_edge_hole", [[[0, 0], [0, 4], [4, 4], [4, 0]], [[0, 0], [1, 1], [1, 0]]], "?")
    add_case("inv_same_ring_twice", [[[0, 0], [0, 4], [4, 4]], [[0, 0], [0, 4], [4, 4]]], "?")
    add_case("inv_hole_crosses_shell", [ll_circle(0, 60, 1, 20, rng), ll_circle(0, 61, 1, 20, rng, ccw=False)], "invalid")
    add_case("inv_two_vertices", [[[0, 0], [1, 1]]], "invalid")
    add_case("inv_antipodal", [[[0, 0], [0, 180], [10, 90]]], "invalid")
    # Rings a hair either side of a hemisphere (radius 90 deg + delta radians): S2 keeps a loop as
    # given while its curvature is within 9.73 eps per vertex of 0. Own generator, so the cases
    # above and their points do not change.
    hemi = random.Random(90)
    for delta in (-1e-13, -1e-14, 0.0, 1e-14, 1e-13, 1e-12):
        for n in (8, 100, 1000):
            c = to_v(hemi.uniform(-80, 80), hemi.uniform(-180, 180))
            add_case("hemisphere_%g_%d" % (delta, n), [circle_ring(c, math.pi / 2 + delta, n, hemi)])
    for i in range(random_count):  # random mixtures (stars, noise, holes, near poles and the antimeridian)
        lat = rng.choice([rng.uniform(-90, 90), rng.choice([-1, 1]) * rng.uniform(80, 90), rng.uniform(-10, 10)])
        lon = rng.choice([rng.uniform(-180, 180), 180 - rng.uniform(0, 2), -180 + rng.uniform(0, 2)])
        r = 10 ** rng.uniform(-6, math.log10(89.5))
        n = rng.choice([3, 4, 5, 7, 12, 50, 200, 1000, 3000])
        kind = rng.random()
        ring = ll_circle(lat, lon, r, n, rng, noise=0.3 if kind < 0.3 else 0.0, spike=0.8 * rng.random() if kind >= 0.3 else 0.0,
                         waves=rng.choice([0, 3, 7]), ccw=rng.random() < 0.5)
        rings = [ring]
        if rng.random() < 0.3 and n >= 12:
            for h in range(rng.choice([1, 2, 5])):
                # a hole well inside: a small circle near the center
                c = to_v(lat, lon)
                e1, e2 = tangent_frame(c)
                ang = rng.uniform(0, 2 * math.pi)
                off = math.radians(r) * 0.3 * (h / 5)
                hc = norm(add(c, add([math.cos(ang) * x for x in e1], [math.sin(ang) * x for x in e2]), off))
                rings.append(circle_ring(hc, math.radians(r) * 0.05, rng.choice([3, 6, 20]), rng, ccw=rng.random() < 0.5))
        add_case("random_%03d" % i, rings, "?")
    return out


def bounding_cap(rings):
    vs = [to_v(a, b) for ring in rings for a, b in ring]
    c = [sum(v[i] for v in vs) for i in range(3)]
    if math.sqrt(dot(c, c)) < 1e-9:
        c = [0, 0, 1]
    c = norm(c)
    r = max(math.acos(max(-1, min(1, dot(c, v)))) for v in vs)
    return c, min(math.pi, r * 1.15 + 1e-9)


def random_in_cap(rng, c, r):
    z = rng.uniform(math.cos(r), 1)
    a = rng.uniform(0, 2 * math.pi)
    s = math.sqrt(max(0, 1 - z * z))
    e1, e2 = tangent_frame(c)
    return norm(add(add([z * x for x in c], [s * math.cos(a) * x for x in e1]), [s * math.sin(a) * x for x in e2]))


def points(rng, rings, count):
    c, r = bounding_cap(rings)
    out = [to_ll(random_in_cap(rng, c, r)) for _ in range(count)]
    edges = [(to_v(*ring[k]), to_v(*ring[(k + 1) % len(ring)])) for ring in rings for k in range(len(ring))]
    for _ in range(count):
        a, b = edges[rng.randrange(len(edges))]
        n = cross(a, b)
        if dot(n, n) < 1e-40:
            continue
        n = norm(n)
        t = rng.random()
        p = norm(add([(1 - t) * x for x in a], [t * x for x in b]))
        d = rng.choice([1e-3, 2e-3, 1e-2, 1.0, 100.0]) / R * rng.choice([1, -1])
        out.append(to_ll(norm(add(p, n, d))))
    for _ in range(count // 2):
        a, _b = edges[rng.randrange(len(edges))]
        e1, e2 = tangent_frame(a)
        ang = rng.uniform(0, 2 * math.pi)
        d = rng.choice([1.5e-3, 1e-2, 1.0]) / R
        out.append(to_ll(norm(add(add(a, e1, d * math.cos(ang)), e2, d * math.sin(ang)))))
    # vertices themselves (boundary; compared but not required)
    out += [list(v) for ring in rings for v in ring[:5]]
    return out


# ---------------------------------------------------------------------------------------------
# Third round: the cube. cases3(rng) / points3(rng, rings, count) are separate from cases() and
# points() so that seeds of the first two rounds (and the committed s2_hard_ vectors) keep their
# output. S2's projection is reproduced here (quadratic st <-> uv, faces 0-5) to place vertices
# on cube-face edges and corners and on S2 cell vertices and centers.

CORNER_LAT = math.degrees(math.atan(1 / math.sqrt(2)))  # 35.26438968275465


def face_uv_to_xyz(face, u, v):
    return [[1, u, v], [-u, 1, v], [-u, -v, 1], [-1, -v, -u], [v, -1, -u], [v, u, -1]][face]


def st_to_uv(s):
    return (4 * s * s - 1) / 3 if s >= 0.5 else (1 - 4 * (1 - s) * (1 - s)) / 3


def xyz_face(p):
    ax, ay, az = abs(p[0]), abs(p[1]), abs(p[2])
    f = (0 if ax > az else 2) if ax > ay else (1 if ay > az else 2)
    return f + 3 if p[f] < 0 else f


def cell_ll(face, i, j):
    """The lat/lon of the point (i, j) / 2^30 in (s, t) of a face: a cell vertex when i and j
    are multiples of the cell size, a center when they are odd multiples of half of it."""
    return to_ll(norm(face_uv_to_xyz(face, st_to_uv(i / 2.0 ** 30), st_to_uv(j / 2.0 ** 30))))


def cube_corners():
    return [[s * CORNER_LAT, l] for s in (1, -1) for l in (45.0, 135.0, -45.0, -135.0)]


def face_edge_lat(lon):
    """Latitude of the boundary between an equatorial face and the north polar face at lon."""
    c = max(abs(math.cos(math.radians(lon))), abs(math.sin(math.radians(lon))))
    return math.degrees(math.atan(c))


def cases3(rng, random_count=0):
    """Round three: vertices and edges exactly on cube-face boundaries and corners, polygons over
    three or more faces, edges longer than 90 degrees and nearly antipodal, loops on S2 cell
    vertices and centers (levels 5-30), shared vertices between rings, duplicate and repeated
    closing vertices, 1 mm polygons far from face centers, collinear runs along meridians and the
    equator, polar shells with polar holes, six-part polygons of the shrunk faces, edges 1e-16 to
    1e-12 radians across face edges, big shells with a hole and a part touching at vertices; then
    random_count mixtures centered on corners, face edges and cell vertices, and random_count // 2
    lattice fuzz polygons (lattice_rings). Same (name, rings, expect) form as cases()."""
    out = []

    def add_case(name, rings, expect="valid"):
        out.append((name, [[[float(a), float(b)] for a, b in ring] for ring in rings], expect))

    corners = cube_corners()
    # Stars and squares centered exactly on each of the 8 cube corners (3 faces meet there), at
    # radii from 1e-7 to 20 degrees; a vertex exactly on the corner.
    for k, (lat, lon) in enumerate(corners):
        r = [1e-7, 1e-4, 0.01, 1.0, 5.0, 20.0, 1e-5, 0.3][k]
        add_case("corner_star_%d_%g" % (k, r), [ll_circle(lat, lon, r, rng.choice([5, 24, 120]), rng, spike=0.6, ccw=k % 2 == 0)])
        add_case("corner_square_%d" % k, [ll_circle(lat, lon, [1e-9, 1e-6, 1e-3, 2.0][k % 4], 4, rng)])
        d = [1e-9, 1e-6, 1e-3, 1.0][k % 4]
        add_case("corner_vertex_%d" % k, [[[lat, lon], [lat + d, lon + d], [lat + 2 * d, lon - d]]])
    # A triangle whose three vertices are the three face-edge directions out of a corner.
    c = to_v(*corners[0])
    for d in (1e-8, 1e-3, 0.5):
        ring = []
        for ax in range(3):
            q = list(c)
            q[ax] += math.radians(d)
            ring.append(to_ll(norm(q)))
        add_case("corner_axes_tri_%g" % d, [ring])
    # Polygons whose vertices lie on the face edges: lon exactly +-45 / +-135 (equatorial face
    # boundaries) and lat = atan(cos lon) (polar face boundaries), edges running along them.
    for lon in (45.0, 135.0, -45.0, -135.0):
        add_case("meridian_face_edge_%g" % lon, [[[-10, lon], [-5, lon], [0, lon], [5, lon], [10, lon], [10, lon + 1], [-10, lon + 1]]])
        add_case("meridian_face_edge_west_%g" % lon, [[[-10, lon - 0.001], [10, lon - 0.001], [10, lon], [0, lon], [-10, lon]]])
        add_case("equator_face_edge_diamond_%g" % lon, [[[0, lon - 1e-6], [-1e-6, lon], [0, lon + 1e-6], [1e-6, lon]]])
    for lon in (0.0, 20.0, 45.0, -70.0, 180.0):
        lat = face_edge_lat(lon)
        add_case("polar_face_edge_tri_%g" % lon, [[[lat, lon], [lat + 1, wrap(lon + 1)], [lat + 1, lon - 1]]])
        add_case("polar_face_edge_sq_s_%g" % lon, [ll_circle(-lat, lon, 1e-4, 4, rng)])
    add_case("face_edge_polyline_n", [[[face_edge_lat(l), l] for l in range(-180, 180, 5)]])  # the polar face's boundary
    add_case("face_edge_polyline_n_cw", [[[face_edge_lat(l), l] for l in range(180, -180, -5)]])
    add_case("face_edge_polyline_s_45", [[[-face_edge_lat(l), l] for l in range(-180, 180, 45)]])  # through 4 corners
    add_case("face0_boundary", [[[-CORNER_LAT, -45.0], [-CORNER_LAT, 45.0], [CORNER_LAT, 45.0], [CORNER_LAT, -45.0]]])  # face 0's corners
    add_case("face0_boundary_cw", [[[-CORNER_LAT, -45.0], [CORNER_LAT, -45.0], [CORNER_LAT, 45.0], [-CORNER_LAT, 45.0]]])
    add_case("face0_boundary_dense", [[[-face_edge_lat(l), l] for l in range(-45, 46, 5)] + [[a, 45.0] for a in range(-34, 35, 2)]
                                      + [[face_edge_lat(l), l] for l in range(45, -46, -5)] + [[a, -45.0] for a in range(34, -35, -2)]])
    # Polygons over three or more faces with small features near corners.
    for k in range(4):
        lat, lon = corners[rng.randrange(8)]
        ring = ll_circle(lat, lon, rng.choice([25.0, 40.0, 60.0]), 80, rng, waves=5)
        notch = ll_circle(lat, lon, 1e-5, 6, rng, ccw=False)
        add_case("three_faces_%d" % k, [ring, notch])
        add_case("three_faces_spiky_%d" % k, [ll_circle(lat, lon, 30.0, 600, rng, spike=0.999)])
    add_case("six_faces_band", [[[40 * math.sin(math.radians(l * 3)), l] for l in range(-180, 180, 3)], ])
    # Long edges: longer than 90 degrees and nearly antipodal.
    for d in (1e-1, 1e-4, 1e-7, 1e-9):
        add_case("near_antipodal_%g" % d, [[[0, 0], [0, 180 - d], [45, 90]]])
        add_case("near_antipodal_cw_%g" % d, [[[0, 0], [45, 90], [0, 180 - d]]])
    add_case("edges_120", [[[0, 0], [0, 120], [0, -120 + 1e-3], [30, 60]]], "?")
    add_case("long_quad", [[[-10, -100], [-10, 100], [10, 100], [10, -100]]])
    add_case("lune_179", [[[90, 0], [0, 0], [-90, 0], [0, 179]]], "?")
    add_case("lune_thin", [[[89.9, 0], [0, 0], [-89.9, 0], [0, 1e-6]]])
    add_case("long_edge_corner_to_corner", [[corners[0], corners[6], corners[2]]])
    # S2 cells as loops: the 4 vertices of a cell (the polygon is the cell up to rounding),
    # 2 x 2 and L-shaped unions, the centers of 8 neighbours, at levels 5 to 30.
    for L in (5, 10, 17, 20, 23, 26, 28, 29, 30):
        size = 1 << (30 - L)
        for variant in range(2):
            f = rng.randrange(6)
            if variant:  # at a face corner or edge
                i = rng.choice([0, (1 << 30) - size])
                j = rng.randrange(1 << L) * size
            else:
                i, j = rng.randrange(1 << L) * size, rng.randrange(1 << L) * size
            i = min(i, (1 << 30) - 2 * size)
            j = min(j, (1 << 30) - 2 * size)
            add_case("cell_L%d_%d" % (L, variant), [[cell_ll(f, i, j), cell_ll(f, i + size, j), cell_ll(f, i + size, j + size), cell_ll(f, i, j + size)]])
            add_case("cell_2x2_L%d_%d" % (L, variant), [[cell_ll(f, i, j), cell_ll(f, i + size, j), cell_ll(f, i + 2 * size, j), cell_ll(f, i + 2 * size, j + size),
                                                         cell_ll(f, i + 2 * size, j + 2 * size), cell_ll(f, i + size, j + 2 * size), cell_ll(f, i, j + 2 * size), cell_ll(f, i, j + size)]])
            add_case("cell_L_shape_L%d_%d" % (L, variant), [[cell_ll(f, i, j), cell_ll(f, i + 2 * size, j), cell_ll(f, i + 2 * size, j + size),
                                                             cell_ll(f, i + size, j + size), cell_ll(f, i + size, j + 2 * size), cell_ll(f, i, j + 2 * size)]])
            if L < 30:
                h = size // 2
                add_case("cell_centers_L%d_%d" % (L, variant), [[cell_ll(f, i + h, j + h), cell_ll(f, i + 3 * h, j + h), cell_ll(f, i + 3 * h, j + 3 * h), cell_ll(f, i + h, j + 3 * h)]])
    # Cell squares across a face edge: a cell of face 0 next to the cell of face 1 across u = 1.
    for L in (10, 20, 30):
        size = 1 << (30 - L)
        j = rng.randrange(1 << L) * size
        a = [cell_ll(0, (1 << 30) - size, j), cell_ll(0, 1 << 30, j), cell_ll(0, 1 << 30, j + size), cell_ll(0, (1 << 30) - size, j + size)]
        add_case("cell_face_edge_L%d" % L, [a])
        b = [cell_ll(1, 0, j), cell_ll(1, size, j), cell_ll(1, size, j + size), cell_ll(1, 0, j + size)]
        add_case("cells_two_faces_L%d" % L, [[a[0], a[1], b[1], b[2], a[2], a[3]]], "?")
    # Shared vertices: a hole touching its shell at one vertex, parts sharing a vertex (at a
    # cube corner, on a face edge, at a pole), three parts at one vertex, a hole touching at two.
    C = corners[0]
    add_case("hole_touch_corner", [[[C[0] - 1, C[1] - 1], [C[0] - 1, C[1] + 1], [C[0] + 1, C[1] + 1], [C[0] + 1, C[1] - 1]],
                                   [[C[0] - 1, C[1] - 1], [C[0], C[1]], [C[0] - 0.5, C[1]]]], "?")
    add_case("parts_share_corner", [[[C[0], C[1]], [C[0] - 1, C[1]], [C[0] - 1, C[1] - 1]], [[C[0], C[1]], [C[0] + 1, C[1] + 1], [C[0], C[1] + 1]]], "?")
    add_case("parts_share_vertex_3", [[[0, 45], [1, 45], [1, 46]], [[0, 45], [0, 46], [-1, 46]], [[0, 45], [-1, 44], [0, 44]]], "?")
    add_case("parts_share_pole", [[[90, 0], [80, 10], [80, 20]], [[90, 0], [80, 120], [80, 130]]], "?")
    add_case("parts_share_pole_lons", [[[90, 0], [80, 10], [80, 20]], [[90, 180], [80, 120], [80, 130]]], "?")
    add_case("hole_touch_two_vertices", [[[0, 0], [0, 4], [4, 4], [4, 0]], [[0, 0], [2, 3], [4, 4], [3, 1]]], "?")
    add_case("hole_touch_vertex_on_edge", [[[0, 0], [0, 4], [4, 4], [4, 0]], [[0, 2], [1, 3], [2, 2]]], "?")
    add_case("parts_touch_vertex_on_edge", [[[0, 0], [0, 4], [4, 4], [4, 0]], [[0, 2], [-1, 1], [-1, 3]]], "?")
    add_case("hole_touch_shell_face_edge", [[[-1, 44], [-1, 46], [1, 46], [1, 44]], [[0, 45], [0.5, 44.5], [0.5, 45.5]], [[0, 45], [-0.5, 45.5], [-0.5, 44.5]]], "?")
    # Duplicate consecutive vertices and a repeated closing vertex (the GeoJSON writer closes
    # each ring once more: a ring ending with its first vertex becomes [..., a, a]).
    add_case("dup_consecutive_mid", [[[0, 0], [0, 1], [1, 1], [1, 1], [1, 0]]], "invalid")
    add_case("dup_closing_twice", [[[0, 0], [0, 1], [1, 1], [1, 0], [0, 0]]], "invalid")
    add_case("dup_consecutive_corner", [[corners[1], corners[1], [corners[1][0] + 1, corners[1][1]], [corners[1][0], corners[1][1] + 1]]], "invalid")
    add_case("dup_near_1e-15", [[[0, 0], [0, 1], [1, 1], [1, 1 + 1e-15], [1, 0]]], "?")
    add_case("dup_pole_lons", [[[90, 0], [90, 10], [80, 10], [80, 0]]], "?")
    add_case("dup_minus_zero", [[[0.0, 0.0], [-0.0, 1.0], [1.0, 1.0], [1.0, -0.0]]], "?")
    # 1 mm polygons far from the face centers (near corners, edges, poles, the antimeridian).
    mm = math.degrees(1e-3 / R)
    for k, (lat, lon) in enumerate(corners[:4] + [[0.0, 45.0], [0.0, 135.0 - 1e-9], [89.9999, 13.0], [-35.0, 180.0], [face_edge_lat(10.0), 10.0]]):
        add_case("mm_%d" % k, [ll_circle(lat, lon, mm, rng.choice([3, 4, 8]), rng, ccw=rng.random() < 0.5)])
        add_case("mm_star_%d" % k, [ll_circle(lat + 2 * mm, lon, mm, 20, rng, spike=0.9)])
    # Collinear runs: vertices on a meridian (including the face edge 45) and on the equator.
    for lon in (0.0, 45.0, 7.3, 180.0):
        run = [[0.001 * k, lon] for k in range(0, 200)]
        add_case("collinear_meridian_%g" % lon, [run + [[0.2, wrap(lon + 0.1)], [0.0, wrap(lon + 0.1)]]])
    eq = [[0.0, -1 + 0.01 * k] for k in range(201)]
    add_case("collinear_equator", [eq + [[-0.5, 1.0], [-0.5, -1.0]]])
    add_case("collinear_equator_cw", [(eq + [[-0.5, 1.0], [-0.5, -1.0]])[::-1]])
    add_case("collinear_equator_45", [[[0.0, 44 + 0.01 * k] for k in range(201)] + [[0.5, 46.0], [0.5, 44.0]]])
    add_case("collinear_both_sides", [[[0.0, -1.0], [0.0, 0.0], [0.0, 1.0], [1.0, 1.0], [1.0, 0.0], [1.0, -1.0]]])
    # Polar shells with a hole around the same pole (the pole outside), both orientations, and
    # vertices at exactly +-180.
    for sgn in (1, -1):
        for (a, b) in ((60.0, 80.0), (85.0, 89.99), (89.0, 89.999999)):
            shell = [[sgn * a, -180 + 7.5 * k] for k in range(48)]
            hole = [[sgn * b, -180 + 10 * k] for k in range(36)]
            tag = "n" if sgn > 0 else "s"
            add_case("polar_annulus_%s_%g_%g" % (tag, a, b), [shell, hole[::-1]])
            add_case("polar_annulus_rev_%s_%g_%g" % (tag, a, b), [shell[::-1], hole])
        add_case("polar_annulus_offset_%s" % ("n" if sgn > 0 else "s"), [[[sgn * 70, -180 + 12 * k] for k in range(30)], ll_circle(sgn * 88, 40, 3, 16, rng)])
    # Six parts, one per face, each the face shrunk by d in (u, v): a polygon of almost the whole
    # sphere (d = 1e-9: the parts' edges 1e-9 from the face edges, 6 meeting near each corner).
    for d in (0.1, 1e-6, 1e-9):
        parts = []
        for f in range(6):
            q = 1 - d
            parts.append([to_ll(norm(face_uv_to_xyz(f, u, v))) for u, v in ((-q, -q), (q, -q), (q, q), (-q, q))])
        add_case("multipart_six_faces_%g" % d, parts)
    # Faces sharing their corners: face 0 and face 2's boundary squares meet along an edge
    # (invalid), faces 0 and 5 do not meet; corner-sharing triangles around a cube corner.
    sq = lambda f: [to_ll(norm(face_uv_to_xyz(f, u, v))) for u, v in ((-1, -1), (1, -1), (1, 1), (-1, 1))]
    add_case("faces_0_2_share_edge", [sq(0), sq(2)], "?")
    add_case("faces_0_3_apart", [sq(0), sq(3)])
    # Tiny edges (1e-16 to 1e-12 radians) across face edges and at a corner: one vertex of a
    # triangle split in two, either side of the boundary.
    for d in (1e-16, 1e-15, 2e-15, 1e-14, 1e-12):
        for k, (lat, lon) in enumerate([[0.0, 45.0], [20.0, 135.0], [face_edge_lat(30.0), 30.0], corners[3]]):
            v = to_v(lat, lon)
            e1, e2 = tangent_frame(v)
            a = to_ll(norm(add(v, e1, d)))
            b = to_ll(norm(add(v, e1, -d)))
            far1 = to_ll(norm(add(v, e2, 0.01)))
            far2 = to_ll(norm(add(add(v, e2, 0.01), e1, 0.01)))
            add_case("tiny_edge_%g_%d" % (d, k), [[a, b, far1, far2] if k % 2 else [b, a, far2, far1]], "?")
    # Big shells (60 to 89.99 degrees, around a corner, a pole or the antimeridian) with a hole
    # touching at a shell vertex and a second part touching from outside at another: S2 nests
    # by ContainsNested (the wedge at the inner loop's vertex 1) and checks the nesting again
    # with ContainsNonCrossingBoundary (vertex 0), both behind bounding-rectangle tests.
    for k, (lat, lon, r) in enumerate([(CORNER_LAT, 45.0, 60.0), (90.0, 0.0, 89.0), (0.0, 180.0, 89.9), (-CORNER_LAT, -135.0, 89.99), (-90.0, 0.0, 30.0)]):
        shell = ll_circle(lat, lon, r, 40, rng)
        c = to_v(lat, lon)
        v0, v1, v20 = to_v(*shell[0]), to_v(*shell[1]), to_v(*shell[20])
        inner1 = to_ll(norm(add(add([x * 0.9 for x in v0], c, 0.1), v1, 0.05)))
        inner2 = to_ll(norm(add([x * 0.9 for x in v0], c, 0.1)))
        hole = [shell[0], inner1, inner2]
        outer1 = to_ll(norm(add(v20, c, -0.1)))
        outer2 = to_ll(norm(add(add(v20, c, -0.1), to_v(*shell[21]), 0.1)))
        part = [shell[20], outer1, outer2]
        add_case("big_shell_touch_%d" % k, [shell, hole, part], "?")
        add_case("big_shell_touch_rev_%d" % k, [part[::-1], hole[::-1], shell[::-1]], "?")
        add_case("big_shell_touch_v1_%d" % k, [shell, [inner1, shell[0], inner2], [outer1, shell[20], outer2]], "?")
    for i in range(random_count):  # random mixtures placed on the cube's edges and corners
        kind = rng.randrange(4)
        if kind == 0:
            lat, lon = rng.choice(corners)
        elif kind == 1:
            lon = rng.choice([45.0, 135.0, -45.0, -135.0])
            lat = rng.uniform(-CORNER_LAT, CORNER_LAT)
        elif kind == 2:
            lon = rng.uniform(-180, 180)
            lat = rng.choice([1, -1]) * face_edge_lat(lon)
        else:
            L = rng.randrange(5, 31)
            size = 1 << (30 - L)
            f = rng.randrange(6)
            i0, j0 = rng.randrange(1 << L) * size, rng.randrange(1 << L) * size
            lat, lon = cell_ll(f, i0, j0)
        r = 10 ** rng.uniform(-8, math.log10(60))
        n = rng.choice([3, 4, 5, 8, 30, 200, 1000])
        ring = ll_circle(lat, lon, r, n, rng, noise=0.3 if rng.random() < 0.3 else 0.0, spike=0.9 * rng.random() if rng.random() < 0.5 else 0.0,
                         ccw=rng.random() < 0.5)
        if rng.random() < 0.3:  # the center itself as a vertex (a corner, edge or cell vertex)
            ring[0] = [lat, lon]
        rings = [ring]
        if rng.random() < 0.25 and n >= 8:
            rings.append(ll_circle(lat, lon, r * 0.1, rng.choice([3, 4, 12]), rng, ccw=rng.random() < 0.5))
        add_case("cube_random_%03d" % i, rings, "?")
    for i in range(random_count // 2):  # rings on a small lattice: shared vertices and edges everywhere
        add_case("lattice_random_%03d" % i, lattice_rings(rng, corners), "?")
    return out


def lattice_rings(rng, corners):
    """1 to 4 rings whose vertices lie on a 6 x 6 lattice of lat/lon steps (rectangles, some with
    extra vertices on their sides, random triangles to pentagons, either orientation), anchored at
    a cube corner, a face edge, a pole, the antimeridian or anywhere, with steps from 1e-7 to 10
    degrees: rings share vertices and edges all the time (the round-two fuzz, moved to the cube)."""
    kind = rng.randrange(5)
    step = 10 ** rng.uniform(-7, 1)
    if kind == 0:
        lat0, lon0 = rng.choice(corners)
    elif kind == 1:
        lat0, lon0 = rng.uniform(-30, 30), rng.choice([45.0, 135.0, -45.0, -135.0])
    elif kind == 2:
        lat0, lon0 = rng.choice([90.0, -90.0]), rng.uniform(-180, 180)
    elif kind == 3:
        lat0, lon0 = rng.uniform(-60, 60), 180.0
    else:
        lat0, lon0 = rng.uniform(-80, 80), rng.uniform(-180, 180)
    off = rng.randrange(6)  # the anchor's place in the lattice

    def pt(i, j):
        lat = lat0 + (i - off) * step
        lat = max(-90.0, min(90.0, lat))
        return [lat, wrap(lon0 + (j - off) * step) if abs(lon0 + (j - off) * step) > 180 else lon0 + (j - off) * step]

    rings = []
    for _ in range(rng.choice([1, 2, 2, 3, 4])):
        if rng.random() < 0.5:
            i0, i1 = sorted(rng.sample(range(6), 2))
            j0, j1 = sorted(rng.sample(range(6), 2))
            ring = [pt(i, j0) for i in range(i0, i1)] + [pt(i1, j) for j in range(j0, j1)] \
                + [pt(i, j1) for i in range(i1, i0, -1)] + [pt(i0, j) for j in range(j1, j0, -1)]
            if rng.random() < 0.5:  # only the corners
                ring = [pt(i0, j0), pt(i1, j0), pt(i1, j1), pt(i0, j1)]
        else:
            ring = [pt(rng.randrange(6), rng.randrange(6)) for _ in range(rng.choice([3, 4, 5]))]
        if rng.random() < 0.5:
            ring.reverse()
        # No equal consecutive vertices (the clamp at +-90 makes some): S2's InitNested, which
        # runs before validation, stops the debug build of libs2 (a FATAL check in OrderedCCW)
        # on a loop whose vertex 1 repeats vertex 0 or 2 when another loop shares it.
        ring = [p for k, p in enumerate(ring) if to_v(*p) != to_v(*ring[k - 1])]
        if len(ring) >= 3:
            rings.append(ring)
    return rings or [[pt(0, 0), pt(1, 0), pt(0, 1)]]


def points3(rng, rings, count):
    """points() plus: every vertex (not just 5), edge midpoints computed in lat/lon, the cube
    corners, the poles, points on the face edges and S2 cell vertices and centers near the
    polygon (levels 10-30), each a candidate for lying exactly on a boundary."""
    out = points(rng, rings, count)
    vs = [v for ring in rings for v in ring]
    out += [list(v) for v in vs[5:200]]
    for ring in rings:
        for k in range(min(len(ring), 50)):
            a, b = to_v(*ring[k]), to_v(*ring[(k + 1) % len(ring)])
            m = add(a, b)
            if dot(m, m) > 1e-20:
                out.append(to_ll(norm(m)))
    out += cube_corners() + [[90.0, 0.0], [-90.0, 0.0], [90.0, 180.0], [0.0, 45.0], [0.0, -135.0]]
    c, r = bounding_cap(rings)
    for _ in range(count // 2):
        p = random_in_cap(rng, c, r)
        f = xyz_face(p)
        x, y, z = p
        u, v = [lambda: (y / x, z / x), lambda: (-x / y, z / y), lambda: (-x / z, -y / z),
                lambda: (z / x, y / x), lambda: (z / y, -x / y), lambda: (-y / z, -x / z)][f]()
        s = (0.5 * math.sqrt(1 + 3 * u) if u >= 0 else 1 - 0.5 * math.sqrt(1 - 3 * u))
        t = (0.5 * math.sqrt(1 + 3 * v) if v >= 0 else 1 - 0.5 * math.sqrt(1 - 3 * v))
        L = rng.randrange(10, 31)
        size = 1 << (30 - L)
        i = min((1 << 30) - 1, int(s * 2 ** 30)) // size * size
        j = min((1 << 30) - 1, int(t * 2 ** 30)) // size * size
        if rng.random() < 0.5:
            out.append(cell_ll(f, i, j))
        elif size > 1:
            out.append(cell_ll(f, i + size // 2, j + size // 2))
        else:
            out.append(cell_ll(f, i, j + 1))
        if rng.random() < 0.3:  # a point on a face edge near the polygon
            out.append(cell_ll(f, rng.choice([0, 1 << 30]), j))
    return out


def rotate(v, axis, angle):
    """v rotated by angle (radians) about the unit vector axis (Rodrigues)."""
    c, s = math.cos(angle), math.sin(angle)
    k = cross(axis, v)
    d = dot(axis, v)
    return [v[i] * c + k[i] * s + axis[i] * d * (1 - c) for i in range(3)]


def move_rings(rings, src, dst, spin=0.0, digits=7):
    """rings (lat/lon) moved rigidly on the sphere so that the point src goes to dst and then
    turned by spin degrees about dst, the coordinates rounded to `digits` decimals as in
    OpenStreetMap: real outlines placed on a cube corner, a face edge, a pole or the antimeridian."""
    a, b = to_v(*src), to_v(*dst)
    axis = cross(a, b)
    n = math.sqrt(dot(axis, axis))
    angle = math.atan2(n, dot(a, b))
    out = []
    for ring in rings:
        moved = []
        for lat, lon in ring:
            v = to_v(lat, lon)
            if n > 1e-15:
                v = rotate(v, [x / n for x in axis], angle)
            v = rotate(v, b, math.radians(spin))
            la, lo = to_ll(v)
            moved.append([round(la, digits), round(lo, digits)])
        out.append(moved)
    return out
