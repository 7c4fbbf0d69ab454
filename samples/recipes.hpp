// The model recipes of the corpus: each fills a Kit with the nodes, geometry, animation and
// per-model data (Res17 path graphs, lightmap flags) of one kind of game object.
#pragma once

#include "samples/kit.hpp"

namespace msh::samples {

struct BuildingStyle {
    double hx, hy, hz;
    bool roof_prism; // else a wedge roof
    bool interior;
    bool damaged; // group 1
    bool chimney;
};

struct TurretStyle {
    double size;
    int barrels;
    bool laser;
    bool rocket;
    int sweep; // 0 = full circle, else +- degrees
};

void building(Kit& k, const BuildingStyle& s);
void tree(Kit& k, bool pine);
void rock(Kit& k);
void crate(Kit& k, bool barrel);
void windmill(Kit& k);
void radar(Kit& k);
void lamp(Kit& k);
void fence(Kit& k);
void silo(Kit& k);
void pipeline(Kit& k);
void bridge(Kit& k);
void tank(Kit& k, double size, bool animated, bool wreck);
void turret(Kit& k, const TurretStyle& s);
void quadruped(Kit& k, int legs_pairs, double size, bool labels);
void bird(Kit& k, double size);
void worm(Kit& k, int segments, double size);
int big_creature(Kit& k, int detail, int box_pads);
void bunker(Kit& k, bool hex);
void tower(Kit& k);
void wall(Kit& k);
void gate(Kit& k);
void factory(Kit& k);
void pod_base(Kit& k);
void dock(Kit& k);
void store(Kit& k);
void mine(Kit& k);
void mtcheck(Kit& k);
void shade(Kit& k);
void arrow(Kit& k);
void cursor(Kit& k);
void select_ring(Kit& k);
void flag(Kit& k);
void waypoint(Kit& k);
void beacon(Kit& k);
void rocket(Kit& k, bool spinning, bool deploying);
void shell(Kit& k, bool bomb);
void landmine(Kit& k);
void gatling(Kit& k);
void laser_gun(Kit& k);
void plasma(Kit& k);

} // namespace msh::samples
