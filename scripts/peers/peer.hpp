// What every peer program shares: reading the workload CSVs (docs/WORKLOADS.md), the exact test
// (squared chord on unit vectors, sphere of radius 6,371,008.8 m), the checksum, timing and the
// result line. Each peer supplies only its index: build it, then list candidate fences per fix.
//
// Result: one JSON object on stdout, e.g.
//   {"peer":"boost_packed","fences":3000,"fixes":1000000,"build_seconds":0.0011,
//    "query_seconds":0.16,"fixes_per_second":6250000,"hits":1925461,
//    "checksum":"688934738441171353","candidates":2400000,"index_mb":0.6}
// Query time is the median of --reps runs (default 3) after one warm-up run; each run must give
// the same hits and checksum.
#pragma once
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace peer {

constexpr double kEarthRadius = 6371008.8;  // meters, the package's sphere
constexpr double kRadiansPerDegree = M_PI / 180.0;

struct Fences {
  std::vector<uint32_t> id;
  std::vector<double> lat, lon, radius;  // degrees, meters
  size_t size() const { return id.size(); }
};
struct Fixes {
  std::vector<double> lat, lon;  // degrees
  size_t size() const { return lat.size(); }
};
struct Vec3 { double x, y, z; };
// What the exact test reads of one fence, in one 40-byte record: a candidate costs one load of
// one record rather than one from each of several arrays.
struct Disc { double x, y, z, limit; uint32_t id; };

inline Vec3 unit_vector(double lat, double lon) {
  double phi = lat * kRadiansPerDegree, lambda = lon * kRadiansPerDegree, c = std::cos(phi);
  return Vec3{c * std::cos(lambda), c * std::sin(lambda), std::sin(phi)};
}
// |p - c|^2 <= (2 sin(r / 2R))^2  <=>  great-circle distance <= r.
inline double chord2(double meters) {
  double h = std::sin(std::min(M_PI, meters / kEarthRadius) / 2);
  return 4 * h * h;
}
inline Disc disc(double lat, double lon, double radius, uint32_t id) {
  Vec3 v = unit_vector(lat, lon);
  return Disc{v.x, v.y, v.z, chord2(radius), id};
}
inline bool inside(const Disc& d, const Vec3& p) {
  double dx = d.x - p.x, dy = d.y - p.y, dz = d.z - p.z;
  return dx * dx + dy * dy + dz * dz <= d.limit;
}

[[noreturn]] inline void fail(const std::string& message) {
  fprintf(stderr, "%s\n", message.c_str());
  exit(2);
}

// fences.csv: id,lat,lon,radius_m,poi_id,tier (header first).
inline Fences read_fences(const std::string& path) {
  FILE* f = fopen(path.c_str(), "rb");
  if (!f) fail("cannot open " + path);
  char line[512];
  Fences out;
  if (!fgets(line, sizeof line, f)) fail(path + ": empty");
  for (size_t row = 2; fgets(line, sizeof line, f); ++row) {
    char* end;
    const char* p = line;
    unsigned long id = strtoul(p, &end, 10);
    double lat = strtod(end + 1, &end), lon = strtod(end + 1, &end), radius = strtod(end + 1, &end);
    if (*end != ',' && *end != '\n') fail(path + ":" + std::to_string(row) + ": bad row");
    out.id.push_back((uint32_t)id); out.lat.push_back(lat); out.lon.push_back(lon); out.radius.push_back(radius);
  }
  fclose(f);
  return out;
}

// fixes.csv: device,t,lat,lon,accuracy_m (header first).
inline Fixes read_fixes(const std::string& path) {
  FILE* f = fopen(path.c_str(), "rb");
  if (!f) fail("cannot open " + path);
  char line[512];
  Fixes out;
  if (!fgets(line, sizeof line, f)) fail(path + ": empty");
  for (size_t row = 2; fgets(line, sizeof line, f); ++row) {
    const char* p = strchr(line, ',');
    if (p) p = strchr(p + 1, ',');
    if (!p) fail(path + ":" + std::to_string(row) + ": bad row");
    char* end;
    double lat = strtod(p + 1, &end), lon = strtod(end + 1, &end);
    out.lat.push_back(lat); out.lon.push_back(lon);
  }
  fclose(f);
  return out;
}

// Lat/lng box (degrees) of a cap that contains no pole and does not cross the antimeridian (the
// generated workloads' fences are all in the contiguous US), widened by 1e-9 degrees.
inline void cap_box(double lat, double lon, double radius, double& south, double& north, double& west, double& east) {
  double angle = radius / kEarthRadius, dlat = angle / kRadiansPerDegree;
  double s = std::sin(angle) / std::cos(lat * kRadiansPerDegree);
  double dlon = s >= 1 ? 180 : std::asin(s) / kRadiansPerDegree;
  south = lat - dlat - 1e-9; north = lat + dlat + 1e-9;
  west = lon - dlon - 1e-9; east = lon + dlon + 1e-9;
}

// Hits and the checksum of docs/WORKLOADS.md: the wrapping sum of fix_index * 1000003 + fence_id.
struct Tally {
  uint64_t hits = 0, checksum = 0, candidates = 0;
  void hit(uint64_t fix, uint64_t fence) { ++hits; checksum += fix * 1000003ull + fence; }
};

// The longest run in a CSR offsets array (offsets.size() - 1 runs): the size of a per-fix buffer.
inline size_t max_run(const std::vector<uint32_t>& offsets) {
  size_t most = 0;
  for (size_t k = 1; k < offsets.size(); ++k) most = std::max(most, (size_t)(offsets[k] - offsets[k - 1]));
  return most;
}

inline double seconds_now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}
// Resident memory (MB) from /proc/self/statm; the index's size is the growth while it is built.
inline double resident_mb() {
  FILE* f = fopen("/proc/self/statm", "r");
  long pages = 0, resident = 0;
  if (f) { if (fscanf(f, "%ld %ld", &pages, &resident) != 2) resident = 0; fclose(f); }
  return resident * 4096.0 / 1e6;
}

struct Options {
  std::string fences, fixes;
  int reps = 3;
};
inline Options parse(int argc, char** argv, const char* usage) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    std::string k = argv[i];
    if (i + 1 >= argc) fail(std::string("usage: ") + usage);
    if (k == "--fences") o.fences = argv[++i];
    else if (k == "--fixes") o.fixes = argv[++i];
    else if (k == "--reps") o.reps = std::max(1, atoi(argv[++i]));
    else fail(std::string("unknown option ") + k + "\nusage: " + usage);
  }
  if (o.fences.empty() || o.fixes.empty()) fail(std::string("usage: ") + usage);
  return o;
}

// Builds once (`build()`), then runs `query(fixes, Tally&)` reps + 1 times (the first a warm-up);
// prints the JSON result with `fence_count` fences.
template <class Build, class Query>
void measure(const std::string& name, int reps, size_t fence_count, const Fixes& fixes, Build build, Query query) {
  double before = resident_mb(), t0 = seconds_now();
  build();
  double build_seconds = seconds_now() - t0, index_mb = resident_mb() - before;
  std::vector<double> times;
  Tally first;
  for (int r = 0; r <= reps; ++r) {
    Tally t;
    double start = seconds_now();
    query(fixes, t);
    double elapsed = seconds_now() - start;
    if (r == 0) first = t;
    else times.push_back(elapsed);
    if (t.hits != first.hits || t.checksum != first.checksum) fail(name + ": runs disagree");
  }
  std::sort(times.begin(), times.end());
  double q = times[times.size() / 2];
  printf("{\"peer\":\"%s\",\"fences\":%zu,\"fixes\":%zu,\"build_seconds\":%.4f,\"query_seconds\":%.4f,"
         "\"fixes_per_second\":%.0f,\"hits\":%llu,\"checksum\":\"%llu\",\"candidates\":%llu,\"index_mb\":%.2f}\n",
         name.c_str(), fence_count, fixes.size(), build_seconds, q, fixes.size() / q,
         (unsigned long long)first.hits, (unsigned long long)first.checksum,
         (unsigned long long)first.candidates, index_mb);
}

// Reads the workload, then measures: build(fences) once, query(fences, fixes, Tally&) per run.
template <class Build, class Query>
void run(const std::string& name, const Options& o, Build build, Query query) {
  Fences fences = read_fences(o.fences);
  Fixes fixes = read_fixes(o.fixes);
  measure(name, o.reps, fences.size(), fixes, [&] { build(fences); },
          [&](const Fixes& x, Tally& t) { query(fences, x, t); });
}

}  // namespace peer
