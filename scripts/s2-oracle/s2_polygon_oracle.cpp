// s2_polygon_oracle: Google S2's own answers for polygons, the reference the Swift GeoCells
// polygon code is tested against (Tests/GeoCellsTests/Fixtures/s2_polygon_*).
//
//   s2_polygon_oracle contains POLYGONS POINTS     -> polygon,point,inside,distance_m
//   s2_polygon_oracle cover POLYGONS MAX_CELLS MIN_LEVEL MAX_LEVEL LEVEL_MOD exterior|interior
//                                                  -> polygon,tokens (space-separated, S2's order)
//   s2_polygon_oracle validate POLYGONS            -> polygon,valid,loops,vertices,area_sr
//   s2_polygon_oracle check-cover POLYGONS POINTS COVERS exterior|interior
//                                                  -> polygon,cells,problem (one line per bad
//                                                     covering; COVERS is a polygon,tokens CSV)
//
// POLYGONS is the text format of make-polygon-fixtures: "polygon ID RINGS", then per ring
// "ring N" and N lines "LAT LON" (degrees, open rings). POINTS: lines "POLYGON_ID POINT_ID LAT LON".
// Each ring becomes S2Loop(vertices) + Normalize(); the rings of one polygon go to
// S2Polygon::InitNested, as GeoCells' Polygon(rings:) does.
//
// Build: g++ -O2 -std=c++17 -o s2_polygon_oracle s2_polygon_oracle.cpp -ls2 $(absl libraries)
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <cmath>
#include <sys/wait.h>
#include <unistd.h>

#include <s2/s1angle.h>
#include <s2/s2cell_id.h>
#include <s2/s2latlng.h>
#include <s2/s2loop.h>
#include <s2/s2polygon.h>
#include <s2/s2region_coverer.h>
#include <s2/s2error.h>
#include <s2/s2cell.h>
#include <s2/s2cell_union.h>

static constexpr double kEarthRadius = 6371008.8;

struct Input {
  std::string id;
  std::unique_ptr<S2Polygon> polygon;
  bool valid;
};

static std::vector<Input> ReadPolygons(const char* path) {
  std::ifstream in(path);
  if (!in) { std::cerr << "cannot open " << path << "\n"; std::exit(2); }
  std::vector<Input> out;
  std::string word;
  while (in >> word) {
    if (word != "polygon") { std::cerr << "expected 'polygon', got " << word << "\n"; std::exit(2); }
    Input p;
    int rings;
    in >> p.id >> rings;
    std::vector<std::unique_ptr<S2Loop>> loops;
    for (int r = 0; r < rings; ++r) {
      int n;
      in >> word >> n;
      std::vector<S2Point> v;
      for (int k = 0; k < n; ++k) {
        double lat, lon;
        in >> lat >> lon;
        v.push_back(S2LatLng::FromDegrees(lat, lon).ToPoint());
      }
      auto loop = std::make_unique<S2Loop>(v, S2Debug::DISABLE);
      // Normalize() without its closing check, which stops Debian's libs2 build on a loop
      // that repeats a vertex (invalid anyway) and stays unnormalized after Invert().
      if (!loop->IsNormalized()) loop->Invert();
      loops.push_back(std::move(loop));
    }
    p.polygon = std::make_unique<S2Polygon>();
    p.polygon->set_s2debug_override(S2Debug::DISABLE);
    p.polygon->InitNested(std::move(loops));
    S2Error error;
    p.valid = !p.polygon->FindValidationError(&error);
    if (!p.valid) std::cerr << "polygon " << p.id << ": " << error << "\n";
    out.push_back(std::move(p));
  }
  return out;
}

// S2Polygon::GetArea, which for some invalid polygons (a self-crossing loop of zero area and
// curvature) stops the process on a check of Debian's libs2 build: those are run in a child
// process and give nan.
static double SafeArea(const Input& p) {
  if (p.valid) return p.polygon->GetArea();
  std::fflush(stdout);
  int fd[2];
  if (pipe(fd) != 0) return NAN;
  pid_t pid = fork();
  if (pid == 0) {
    close(fd[0]);
    double a = p.polygon->GetArea();
    if (write(fd[1], &a, sizeof a) != sizeof a) _exit(1);
    _exit(0);
  }
  close(fd[1]);
  double a = NAN;
  if (read(fd[0], &a, sizeof a) != sizeof a) a = NAN;
  close(fd[0]);
  waitpid(pid, nullptr, 0);
  return a;
}

int main(int argc, char** argv) {
  if (argc < 3) { std::cerr << "usage: see the comment at the top of s2_polygon_oracle.cpp\n"; return 2; }
  std::string command = argv[1];
  std::vector<Input> polygons = ReadPolygons(argv[2]);
  std::map<std::string, const S2Polygon*> byId;
  for (auto& p : polygons) byId[p.id] = p.polygon.get();
  if (command == "validate") {
    std::printf("polygon,valid,loops,vertices,area_sr\n");
    for (auto& p : polygons)
      std::printf("%s,%d,%d,%d,%.17g\n", p.id.c_str(), p.valid ? 1 : 0, p.polygon->num_loops(),
                  p.polygon->num_vertices(), SafeArea(p));
  } else if (command == "contains" && argc == 4) {
    std::ifstream in(argv[3]);
    std::string pid, qid;
    double lat, lon;
    std::printf("polygon,point,inside,distance_m\n");
    while (in >> pid >> qid >> lat >> lon) {
      const S2Polygon* poly = byId.at(pid);
      S2Point p = S2LatLng::FromDegrees(lat, lon).ToPoint();
      double d = poly->GetDistanceToBoundary(p).radians() * kEarthRadius;
      std::printf("%s,%s,%d,%.6g\n", pid.c_str(), qid.c_str(), poly->Contains(p) ? 1 : 0, d);
    }
  } else if (command == "cover" && argc == 8) {
    S2RegionCoverer::Options o;
    o.set_max_cells(std::atoi(argv[3]));
    o.set_min_level(std::atoi(argv[4]));
    o.set_max_level(std::atoi(argv[5]));
    o.set_level_mod(std::atoi(argv[6]));
    bool interior = std::string(argv[7]) == "interior";
    S2RegionCoverer coverer(o);
    std::printf("polygon,tokens\n");
    for (auto& p : polygons) {
      std::vector<S2CellId> cells;
      if (interior) coverer.GetInteriorCovering(*p.polygon, &cells);
      else coverer.GetCovering(*p.polygon, &cells);
      std::string tokens;
      for (size_t k = 0; k < cells.size(); ++k) tokens += (k ? " " : "") + cells[k].ToToken();
      std::printf("%s,%s\n", p.id.c_str(), tokens.c_str());
    }
  } else if (command == "check-cover" && argc == 6) {
    // A covering is valid when its cells contain every vertex and every point the polygon
    // contains; an interior covering when every cell lies inside the polygon.
    bool interior = std::string(argv[5]) == "interior";
    std::map<std::string, std::vector<S2Point>> inside;
    {
      std::ifstream in(argv[3]);
      std::string pid, qid;
      double lat, lon;
      while (in >> pid >> qid >> lat >> lon) {
        S2Point p = S2LatLng::FromDegrees(lat, lon).ToPoint();
        if (byId.count(pid) && byId.at(pid)->Contains(p)) inside[pid].push_back(p);
      }
    }
    std::ifstream in(argv[4]);
    std::string line;
    std::getline(in, line);
    std::printf("polygon,cells,problem\n");
    while (std::getline(in, line)) {
      size_t comma = line.find(',');
      std::string pid = line.substr(0, comma);
      if (!byId.count(pid)) continue;
      const S2Polygon* poly = byId.at(pid);
      std::vector<S2CellId> ids;
      std::istringstream tokens(line.substr(comma + 1));
      std::string t;
      while (tokens >> t) ids.push_back(S2CellId::FromToken(t));
      S2CellUnion cells(ids);
      std::string problem;
      if (interior) {
        for (S2CellId id : ids)
          if (!poly->Contains(S2Cell(id))) { problem = "cell " + id.ToToken() + " not inside"; break; }
      } else {
        for (int l = 0; l < poly->num_loops() && problem.empty(); ++l)
          for (int k = 0; k < poly->loop(l)->num_vertices(); ++k)
            if (!cells.Contains(poly->loop(l)->vertex(k))) {
              problem = "vertex " + std::to_string(k) + " of loop " + std::to_string(l) + " not covered";
              break;
            }
        for (const S2Point& p : inside[pid])
          if (problem.empty() && !cells.Contains(p)) problem = "an inside point is not covered";
      }
      if (!problem.empty()) std::printf("%s,%zu,%s\n", pid.c_str(), ids.size(), problem.c_str());
    }
  } else {
    std::cerr << "unknown command or wrong arguments\n";
    return 2;
  }
  return 0;
}
