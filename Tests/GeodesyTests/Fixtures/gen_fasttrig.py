"""Reference values for Geodesy's fastSinCos(degrees:) and UnitVector(fastLatitude:longitude:).

Each value is the correctly rounded binary64 `hi` of the exact result plus `d`, the rounding
residual (exact - hi) in units of ulp(hi) (ulp = 2^(exponent(hi) - 52)), to 6 decimals.
"""
import math, random, sys
from fractions import Fraction
import mpmath as mp
mp.mp.prec = 256
rng = random.Random(20261122)

def ulp(x):
    if x == 0: return 2.0**-1074
    e = math.frexp(abs(x))[1] - 1      # x = m * 2^e, 1 <= m < 2
    return 2.0**max(e - 52, -1074)

def ref(v):
    hi = float(v)                       # mpmath rounds to nearest
    d = (v - mp.mpf(hi)) / mp.mpf(ulp(hi)) 
    return hi, float(d)

def fmt(v):
    hi, d = ref(v)
    return f"{hi!r},{d:.6f}"

def turns(x):
    """x degrees as half-turns (x/180), first reduced exactly into [-180, 180] degrees."""
    r = Fraction(x) - 360 * round(Fraction(x) / 360)
    return mp.mpf(r.numerator) / r.denominator / 180

def sind(x): return mp.sinpi(turns(x))
def cosd(x): return mp.cospi(turns(x))

def nextafter(x, n):
    for _ in range(abs(n)):
        x = math.nextafter(x, math.inf if n > 0 else -math.inf)
    return x

angles = []
cat = []
def add(x, c):
    angles.append(float(x)); cat.append(c)
for k in range(-16, 17):
    add(45.0 * k, "multiple45")
for k in range(-8, 9):
    for n in (-3, -1, 1, 3):
        add(nextafter(90.0 * k, n), "near90k")
        add(nextafter(45.0 * (2 * k + 1), n), "near45odd")
    for e in (1e-13, 1e-9, 1e-6, 1e-3):
        add(90.0 * k + e, "near90k"); add(90.0 * k - e, "near90k")
for t in (5e-324, 1e-310, 2.2250738585072014e-308, 1e-300, 1e-100, 1e-20, 1e-10, 1e-5, 0.001, 0.1):
    add(t, "tiny"); add(-t, "tiny")
for t in (1e6 + 0.3, 123456789.123, 1e13 + 0.3, 2.0**40 * 90 + 37, 1e15 + 0.5, 1e20, -7.25e15, 1e300, -1e22):
    add(t, "large")
while len(angles) < 1700:
    add(rng.uniform(-180, 180), "uniform180")
while len(angles) < 2300:
    add(rng.uniform(-720, 720), "uniform720")
while len(angles) < 2700:
    add(math.copysign(10 ** rng.uniform(-12, 4), rng.random() - 0.5), "loguniform")
while len(angles) < 3000:
    k = rng.randint(-8, 8); add(90.0 * k + rng.uniform(-1e-4, 1e-4), "near90k")

with open(sys.argv[1], "w") as f:
    f.write("degrees,sin,sin_d,cos,cos_d,category\n")
    for x, c in zip(angles, cat):
        f.write(f"{x!r},{fmt(sind(x))},{fmt(cosd(x))},{c}\n")

pts = []
for lat in (0.0, 90.0, -90.0, 45.0, -45.0, 1e-300, 89.99999999):
    for lon in (0.0, 90.0, -90.0, 180.0, -180.0, 45.0, 135.0, -1e-300, 179.9999999999):
        pts.append((lat, lon, "special"))
while len(pts) < 1000:
    pts.append((math.degrees(math.asin(rng.uniform(-1, 1))), rng.uniform(-180, 180), "uniform"))
with open(sys.argv[2], "w") as f:
    f.write("lat,lon,x,x_d,y,y_d,z,z_d,category\n")
    for lat, lon, c in pts:
        f.write(f"{lat!r},{lon!r},{fmt(cosd(lat) * cosd(lon))},{fmt(cosd(lat) * sind(lon))},{fmt(sind(lat))},{c}\n")
