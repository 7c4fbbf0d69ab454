#include "formats/mission.hpp"

#include "formats/record_cursor.hpp"

#include <algorithm>

namespace msh::mission {

const char* to_string(ObjectKind kind) {
    switch (kind) {
    case ObjectKind::Building:
        return "building";
    case ObjectKind::Unit:
        return "unit";
    case ObjectKind::Vegetation:
        return "vegetation";
    case ObjectKind::Rock:
        return "rock";
    }
    return "unknown";
}

namespace {

Route read_route(RecordCursor& c) {
    Route r;
    r.id = c.i32("route id");
    const uint32_t n = c.count("route point count", 12);
    r.points.reserve(n);
    for (uint32_t i = 0; i < n; ++i) r.points.push_back(c.vec3("route point"));
    return r;
}

Clan read_clan(RecordCursor& c) {
    Clan k;
    k.name = c.lp_string("clan name");
    k.unnamed = c.i32("clan word");
    k.base_x = c.f32("clan base x");
    k.base_y = c.f32("clan base y");
    k.type = c.u32("clan type");
    k.ai_script = c.lp_string("clan AI script");
    const uint32_t zones = c.count("clan zone count", kZoneSize);
    for (uint32_t i = 0; i < zones; ++i) {
        Zone z;
        z.kind = c.u32("zone kind");
        z.centre = c.vec3("zone centre");
        z.inner = c.f32("zone inner radius");
        z.outer = c.f32("zone outer radius");
        k.zones.push_back(z);
    }
    k.behaviour = c.lp_string("clan behaviour tree");
    k.minds = c.u32("clan minds");
    const uint32_t relations = c.count("clan relation count", 8);
    for (uint32_t i = 0; i < relations; ++i) {
        Relation rel;
        rel.clan = c.lp_string("relation clan");
        rel.value = c.i32("relation value");
        k.relations.push_back(std::move(rel));
    }
    return k;
}

PlacedObject read_object(RecordCursor& c, uint32_t version) {
    PlacedObject o;
    o.offset = c.at();
    o.kind = c.u32("object kind");
    if (o.kind > 3)
        c.strict_error(o.offset, "object kind " + std::to_string(o.kind) +
                                     " (0 building, 1 unit, 2 vegetation, 3 rock)");
    o.flags = c.u32("object flags");
    if (o.flags != kObjectFlags)
        c.strict_error(o.offset + 4, "object flags word is not 0x80000002");
    o.path = c.lp_string("object path");
    if (version >= 3) o.clan = c.i32("object clan");
    if (version >= 4) o.logical_id = c.i32("object logical id");
    o.transform_offset = c.at();
    o.position = c.vec3("object position");
    o.rotation = c.vec3("object rotation");
    if (version >= 10) o.scale = c.vec3("object scale");
    if (version >= 7) o.instance_name = c.lp_string("object instance name");
    if (version >= 8) o.start_flag = c.u32("object start flag");
    if (version >= 9) {
        o.host = c.i32("object host");
        o.hall_vertex = c.i32("object hall-way vertex");
    }
    if (version >= 6) {
        o.property_word = c.u32("property table word");
        const uint32_t n = c.count("property count", 20);
        for (uint32_t i = 0; i < n; ++i) {
            Property p;
            p.type = c.u32("property type");
            p.value = c.u32("property value");
            p.minimum = c.u32("property minimum");
            p.maximum = c.u32("property maximum");
            p.name = c.lp_string("property name");
            o.properties.push_back(std::move(p));
        }
    }
    return o;
}

void expect(RecordCursor& c, uint64_t at, uint32_t got, uint32_t want, const char* what) {
    if (got != want)
        c.strict_error(at, std::string(what) + " " + std::to_string(got) + ", expected " +
                               std::to_string(want));
}

} // namespace

Mission read(ByteView bytes, DiagnosticSink& sink, const std::string& where) {
    RecordCursor c(bytes, sink, where);
    Mission m;
    m.version = c.u32("version");
    expect(c, 0, m.version, kVersion, "version");
    const uint32_t routes = c.count("route count", 8);
    for (uint32_t i = 0; i < routes; ++i) m.routes.push_back(read_route(c));

    const uint64_t clan_version_at = c.at();
    m.clan_version = c.u32("clan table version");
    if (m.clan_version != kClanVersion)
        sink.fatal(where, clan_version_at,
                   "clan table version " + std::to_string(m.clan_version) +
                       ": only version 6's layout is documented");
    const uint32_t clans = c.count("clan count", 40);
    for (uint32_t i = 0; i < clans; ++i) m.clans.push_back(read_clan(c));

    const uint64_t object_version_at = c.at();
    m.object_version = c.u32("object record version");
    if (m.object_version == 0 || m.object_version > kObjectVersion)
        sink.fatal(where, object_version_at,
                   "object record version " + std::to_string(m.object_version) +
                       ": versions 1 to 10 are documented");
    expect(c, object_version_at, m.object_version, kObjectVersion, "object record version");
    const uint32_t objects = c.count("object count", 24);
    m.objects.reserve(objects);
    for (uint32_t i = 0; i < objects; ++i) m.objects.push_back(read_object(c, m.object_version));

    m.map_path = c.lp_string("map path");
    m.mission_flag = c.u32("mission word");
    const std::string description = c.lp_string("description");
    m.description.assign(description.begin(), description.end());
    m.lode_word = c.u32("lode table word");
    const uint32_t lodes = c.count("lode count", kLodeSize);
    for (uint32_t i = 0; i < lodes; ++i) {
        Lode l;
        l.position = c.vec3("lode position");
        l.found = c.u32("lode found flag");
        l.type = c.u32("lode type");
        l.amount = c.f32("lode amount");
        l.unknown = c.u32("lode word");
        m.lodes.push_back(l);
    }
    if (c.at() != bytes.size()) {
        sink.strict_error(where, c.at(),
                          std::to_string(bytes.size() - c.at()) +
                              " bytes after the lodes (the file should end there)");
        m.tail.assign(bytes.begin() + std::ptrdiff_t(c.at()), bytes.end());
    }
    return m;
}

Mission read(ByteView bytes, ReadMode mode, const std::string& where) {
    DiagnosticSink sink(mode);
    Mission m = read(bytes, sink, where);
    sink.throw_if_errors();
    return m;
}

namespace {

void put_string(ByteWriter& w, const std::string& s) {
    w.put(uint32_t(s.size()));
    w.put_bytes(ByteView(reinterpret_cast<const uint8_t*>(s.data()), s.size()));
}

void put_vec3(ByteWriter& w, const Vec3& v) {
    w.put(v.x);
    w.put(v.y);
    w.put(v.z);
}

void write_object(ByteWriter& w, const PlacedObject& o, uint32_t version) {
    w.put(o.kind);
    w.put(o.flags);
    put_string(w, o.path);
    if (version >= 3) w.put(o.clan);
    if (version >= 4) w.put(o.logical_id);
    put_vec3(w, o.position);
    put_vec3(w, o.rotation);
    if (version >= 10) put_vec3(w, o.scale);
    if (version >= 7) put_string(w, o.instance_name);
    if (version >= 8) w.put(o.start_flag);
    if (version >= 9) {
        w.put(o.host);
        w.put(o.hall_vertex);
    }
    if (version >= 6) {
        w.put(o.property_word);
        w.put(uint32_t(o.properties.size()));
        for (const Property& p : o.properties) {
            w.put(p.type);
            w.put(p.value);
            w.put(p.minimum);
            w.put(p.maximum);
            put_string(w, p.name);
        }
    }
}

} // namespace

Bytes write(const Mission& m) {
    ByteWriter w;
    w.put(m.version);
    w.put(uint32_t(m.routes.size()));
    for (const Route& r : m.routes) {
        w.put(r.id);
        w.put(uint32_t(r.points.size()));
        for (const Vec3& p : r.points) put_vec3(w, p);
    }
    w.put(m.clan_version);
    w.put(uint32_t(m.clans.size()));
    for (const Clan& k : m.clans) {
        put_string(w, k.name);
        w.put(k.unnamed);
        w.put(k.base_x);
        w.put(k.base_y);
        w.put(k.type);
        put_string(w, k.ai_script);
        w.put(uint32_t(k.zones.size()));
        for (const Zone& z : k.zones) {
            w.put(z.kind);
            put_vec3(w, z.centre);
            w.put(z.inner);
            w.put(z.outer);
        }
        put_string(w, k.behaviour);
        w.put(k.minds);
        w.put(uint32_t(k.relations.size()));
        for (const Relation& rel : k.relations) {
            put_string(w, rel.clan);
            w.put(rel.value);
        }
    }
    w.put(m.object_version);
    w.put(uint32_t(m.objects.size()));
    for (const PlacedObject& o : m.objects) write_object(w, o, m.object_version);
    put_string(w, m.map_path);
    w.put(m.mission_flag);
    w.put(uint32_t(m.description.size()));
    w.put_bytes(m.description);
    w.put(m.lode_word);
    w.put(uint32_t(m.lodes.size()));
    for (const Lode& l : m.lodes) {
        put_vec3(w, l.position);
        w.put(l.found);
        w.put(l.type);
        w.put(l.amount);
        w.put(l.unknown);
    }
    w.put_bytes(m.tail);
    return w.take();
}

bool looks_like_mission(ByteView b) {
    if (b.size() < 16 || load<uint32_t>(b, 0) != kVersion) return false;
    const uint32_t routes = load<uint32_t>(b, 4);
    uint64_t at = 8;
    for (uint32_t i = 0; i < routes; ++i) {
        if (!in_range(at, 8, b.size())) return false;
        const uint64_t points = load<uint32_t>(b, size_t(at) + 4);
        at += 8;
        if (points > (b.size() - at) / 12) return false;
        at += points * 12;
    }
    return in_range(at, 8, b.size()) && load<uint32_t>(b, size_t(at)) == kClanVersion;
}

std::string map_folder(const std::string& map_path) {
    std::string p = map_path;
    std::replace(p.begin(), p.end(), '\\', '/');
    const size_t slash = p.rfind('/');
    return slash == std::string::npos ? std::string() : p.substr(0, slash);
}

std::string description_text(const Mission& m) {
    // Up to the first NUL. 0xCD is a letter in CP1251 (U+041D), so it ends the text only as the
    // fill of a buffer that has no NUL: a trailing run of it.
    const auto nul = std::find(m.description.begin(), m.description.end(), uint8_t(0));
    auto end = nul;
    if (nul == m.description.end())
        while (end != m.description.begin() && *(end - 1) == 0xCD) --end;
    return std::string(m.description.begin(), end);
}

} // namespace msh::mission
