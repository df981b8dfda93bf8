// Google S2's own polygon stabbing: every polygon fence of a GeoJSON file as an S2Polygon (each
// ring an S2Loop, normalized, the rings of a feature through InitNested, as GeoCells' Polygon
// does), added as an S2LaxPolygonShape of the same loops to one MutableS2ShapeIndex with at most
// one edge per cell, built once before timing (ForceBuild); a fix is converted with
// S2LatLng::ToPoint, located with the query's own iterator, and each clipped shape of its cell is
// tested with S2ContainsPointQuery::ShapeContains (semi-open vertex model, the model of
// S2Polygon::Contains). No std::function per fix: the query object and its iterator are made
// once and reused.
//   s2_polygons --polygons P.geojson --fixes X [--reps R] [--max-edges-per-cell N] [--shape lax|polygon]
// --max-edges-per-cell sets MutableS2ShapeIndex::Options (S2's own default is 10); --shape polygon
// adds S2Polygon::Shape instead. Tuning only: the defaults are the fewest instructions per fix of
// the settings tried (docs/POLYGONS.md).
// P.geojson: a FeatureCollection of Polygon / MultiPolygon features with integer ids (the fence
// ids). Prints the JSON line of peer.hpp ("fences" = polygons, "candidates" = clipped shapes tested).
#include "peer.hpp"

#include <memory>
#include <utility>

#include <s2/mutable_s2shape_index.h>
#include <s2/s2contains_point_query.h>
#include <s2/s2lax_polygon_shape.h>
#include <s2/s2latlng.h>
#include <s2/s2loop.h>
#include <s2/s2polygon.h>

namespace {

// A minimal JSON reader for GeoJSON: values as a tree, numbers as doubles (ids are integers
// below 2^31, exact in a double).
struct Json {
  enum Kind { kNull, kBool, kNumber, kString, kArray, kObject } kind = kNull;
  double number = 0;
  std::string text;
  std::vector<Json> items;                          // array elements
  std::vector<std::pair<std::string, Json>> fields;  // object members
  const Json* get(const char* key) const {
    for (auto& f : fields) if (f.first == key) return &f.second;
    return nullptr;
  }
};

struct Parser {
  const char* p;
  const char* end;
  std::string path;
  void ws() { while (p < end && (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t')) ++p; }
  void expect(char c) { ws(); if (p >= end || *p != c) peer::fail(path + ": expected '" + c + "'"); ++p; }
  std::string string() {
    expect('"');
    std::string s;
    while (p < end && *p != '"') {
      if (*p == '\\') { ++p; if (p < end && *p == 'u') { p += 5; s += '?'; continue; } }
      if (p < end) s += *p++;
    }
    if (p >= end) peer::fail(path + ": unterminated string");
    ++p;
    return s;
  }
  Json value() {
    ws();
    if (p >= end) peer::fail(path + ": unexpected end");
    Json v;
    if (*p == '{') {
      v.kind = Json::kObject; ++p; ws();
      if (*p == '}') { ++p; return v; }
      while (true) {
        std::string k = string();
        expect(':');
        v.fields.emplace_back(std::move(k), value());
        ws();
        if (*p == ',') { ++p; continue; }
        expect('}');
        return v;
      }
    }
    if (*p == '[') {
      v.kind = Json::kArray; ++p; ws();
      if (*p == ']') { ++p; return v; }
      while (true) {
        v.items.push_back(value());
        ws();
        if (*p == ',') { ++p; continue; }
        expect(']');
        return v;
      }
    }
    if (*p == '"') { v.kind = Json::kString; v.text = string(); return v; }
    if (!strncmp(p, "true", 4) || !strncmp(p, "null", 4)) { v.kind = *p == 't' ? Json::kBool : Json::kNull; p += 4; return v; }
    if (!strncmp(p, "false", 5)) { v.kind = Json::kBool; p += 5; return v; }
    char* stop;
    v.kind = Json::kNumber;
    v.number = strtod(p, &stop);
    if (stop == p) peer::fail(path + ": bad value");
    p = stop;
    return v;
  }
};

// Rings of a Polygon's coordinates -> S2Loops (closing vertex dropped, lon/lat order).
void add_rings(const Json& polygon, std::vector<std::unique_ptr<S2Loop>>& loops) {
  for (const Json& ring : polygon.items) {
    std::vector<S2Point> v;
    size_t n = ring.items.size();
    if (n > 1 && ring.items[0].items[0].number == ring.items[n - 1].items[0].number &&
        ring.items[0].items[1].number == ring.items[n - 1].items[1].number) --n;
    for (size_t i = 0; i < n; ++i)
      v.push_back(S2LatLng::FromDegrees(ring.items[i].items[1].number, ring.items[i].items[0].number).ToPoint());
    auto loop = std::make_unique<S2Loop>(v, S2Debug::DISABLE);
    loop->Normalize();
    loops.push_back(std::move(loop));
  }
}

struct Polygons {
  std::vector<uint32_t> id;
  std::vector<std::unique_ptr<S2Polygon>> polygon;
  size_t size() const { return id.size(); }
};

Polygons read_polygons(const std::string& path) {
  FILE* f = fopen(path.c_str(), "rb");
  if (!f) peer::fail("cannot open " + path);
  std::string bytes;
  char buffer[1 << 16];
  for (size_t n; (n = fread(buffer, 1, sizeof buffer, f)) > 0;) bytes.append(buffer, n);
  fclose(f);
  Parser parser{bytes.data(), bytes.data() + bytes.size(), path};
  Json root = parser.value();
  const Json* features = root.get("features");
  if (!features) peer::fail(path + ": not a FeatureCollection");
  Polygons out;
  for (size_t k = 0; k < features->items.size(); ++k) {
    const Json& feature = features->items[k];
    const Json* id = feature.get("id");
    const Json* geometry = feature.get("geometry");
    if (!id || id->kind != Json::kNumber || !geometry)
      peer::fail(path + ": feature " + std::to_string(k) + " needs an integer id and a geometry");
    const Json* type = geometry->get("type");
    const Json* coordinates = geometry->get("coordinates");
    std::vector<std::unique_ptr<S2Loop>> loops;
    if (type->text == "Polygon") add_rings(*coordinates, loops);
    else if (type->text == "MultiPolygon") for (const Json& part : coordinates->items) add_rings(part, loops);
    else peer::fail(path + ": feature " + std::to_string(k) + " is not a Polygon or MultiPolygon");
    auto polygon = std::make_unique<S2Polygon>();
    polygon->set_s2debug_override(S2Debug::DISABLE);
    polygon->InitNested(std::move(loops));
    out.id.push_back((uint32_t)id->number);
    out.polygon.push_back(std::move(polygon));
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  const char* usage = "s2_polygons --polygons P.geojson --fixes X [--reps R] [--max-edges-per-cell N] [--shape lax|polygon]";
  std::vector<char*> args;
  int max_edges_per_cell = 1;
  bool lax = true;
  for (int i = 0; i < argc; ++i) {
    if (i + 1 < argc && !strcmp(argv[i], "--max-edges-per-cell")) { max_edges_per_cell = std::max(1, atoi(argv[++i])); continue; }
    if (i + 1 < argc && !strcmp(argv[i], "--shape")) { lax = !strcmp(argv[++i], "lax"); continue; }
    args.push_back(!strcmp(argv[i], "--polygons") ? (char*)"--fences" : argv[i]);
  }
  peer::Options options = peer::parse((int)args.size(), args.data(), usage);
  Polygons polygons = read_polygons(options.fences);
  peer::Fixes fixes = peer::read_fixes(options.fixes);

  MutableS2ShapeIndex::Options index_options;
  index_options.set_max_edges_per_cell(max_edges_per_cell);
  MutableS2ShapeIndex index(index_options);
  std::vector<uint32_t> fence_of_shape;  // shape id -> fence id
  auto build = [&] {
    for (size_t k = 0; k < polygons.size(); ++k) {
      int shape = lax ? index.Add(std::make_unique<S2LaxPolygonShape>(*polygons.polygon[k]))
                      : index.Add(std::make_unique<S2Polygon::Shape>(polygons.polygon[k].get()));
      if ((size_t)shape >= fence_of_shape.size()) fence_of_shape.resize(shape + 1);
      fence_of_shape[shape] = polygons.id[k];
    }
    index.ForceBuild();  // else built lazily by the first query, inside the timing
  };
  // Made once, after the build (its iterator is positioned on the built index); reused per fix.
  std::unique_ptr<S2ContainsPointQuery<MutableS2ShapeIndex>> query;  // S2VertexModel::SEMI_OPEN
  auto stab = [&](const peer::Fixes& x, peer::Tally& t) {
    if (!query) query = std::make_unique<S2ContainsPointQuery<MutableS2ShapeIndex>>(&index);
    MutableS2ShapeIndex::Iterator& it = *query->mutable_iter();
    const uint32_t* fence = fence_of_shape.data();
    peer::Tally local;  // in registers, not written through t per hit
    for (size_t q = 0; q < x.size(); ++q) {
      S2Point p = S2LatLng::FromDegrees(x.lat[q], x.lon[q]).ToPoint();
      if (!it.Locate(p)) continue;
      const S2ShapeIndexCell& cell = it.cell();
      S2CellId id = it.id();
      int n = cell.num_clipped();
      local.candidates += n;
      for (int s = 0; s < n; ++s) {
        const S2ClippedShape& clipped = cell.clipped(s);
        if (query->ShapeContains(id, clipped, p)) local.hit(q, fence[clipped.shape_id()]);
      }
    }
    t = local;
  };
  peer::measure("s2_polygons", options.reps, polygons.size(), fixes, build, stab);
  return 0;
}
