/* c_api_review.c - what a review of the C API found in session 55, each
 * case as the review found it (the Lua binding cannot reach these: its
 * formations belong to one world, it checks entries' targets, and it passes
 * an error pointer). spec/review55_spec.lua runs it.
 *   - a world destroyed empties the formations its agents were in (a
 *     formation kept across a level reload had the dead world's ids as
 *     members, and the new world's agent 1 "held" a slot);
 *   - steer_agent_set_path_index sets the waypoint of the route
 *     steer_agent_path finds, not of a contain region before it;
 *   - steer_program_create and steer_agent_set_target refuse entries a
 *     snapshot could not keep (their snapshots would not restore);
 *   - steer_world_restore and steer_navgrid_from_map take a NULL error. */
#include <stdlib.h>
#include <string.h>
#include "oracle.h"
#include "steer.h"

static steer_target point(double x, double y) {
  steer_target t = {.kind = STEER_TARGET_POINT, .point = {x, y}};
  return t;
}

/* A snapshot's bytes gathered in a growing buffer. */
typedef struct buffer {
  unsigned char *bytes;
  size_t n;
} buffer;

static int gather(void *ud, const void *bytes, size_t n) {
  buffer *b = ud;
  unsigned char *more = realloc(b->bytes, b->n + n);
  if (!more) return 1;
  memcpy(more + b->n, bytes, n);
  b->bytes = more;
  b->n += n;
  return 0;
}

static size_t add_agent(steer_world *w, double x, double y, steer_program *p) {
  steer_agent_def d = steer_agent_def_default();
  d.x = x;
  d.y = y;
  steer_id id;
  CHECK(steer_world_add(w, &d, &id) == STEER_OK, "add");
  size_t i = (size_t)steer_world_index(w, id);
  if (p) CHECK(steer_agent_set_program(w, i, p) == STEER_OK, "set_program");
  return i;
}

static void formation_outlives_world(void) {
  steer_vec2 slots[2] = {{-2, 0}, {-4, 0}};
  steer_formation *f = steer_formation_create(point(0, 0), slots, 2);
  CHECK(f != NULL, "formation_create");
  if (!f) return;
  steer_entry e = steer_entry_default(STEER_FORMATION);
  e.target.kind = STEER_TARGET_FORMATION;
  e.target.formation = f;
  steer_program *p = steer_program_create(STEER_WEIGHTED, -1, 0, &e, 1);
  CHECK(p != NULL, "program with a formation entry");
  steer_world *w = steer_world_create(NULL);
  add_agent(w, 1, 0, p);
  add_agent(w, 2, 0, p);
  CHECK(steer_formation_member_count(f) == 2, "members %zu",
        steer_formation_member_count(f));
  steer_world_destroy(w);
  CHECK(steer_formation_member_count(f) == 0,
        "after destroy: %zu members, expected 0",
        steer_formation_member_count(f));
  /* a new world: its agent 1 is a bystander, agent 2 the one member */
  w = steer_world_create(NULL);
  size_t by = add_agent(w, 50, 0, NULL);
  size_t m = add_agent(w, 20, 0, p);
  CHECK(steer_formation_member_count(f) == 1, "new world: %zu members",
        steer_formation_member_count(f));
  CHECK(steer_formation_slot_of(f, steer_world_id_at(w, by)) == -1,
        "the bystander holds no slot");
  CHECK(steer_formation_slot_of(f, steer_world_id_at(w, m)) == 0,
        "the member holds slot 0");
  steer_world_destroy(w);
  steer_program_release(p);
  steer_formation_release(f);
}

static void path_index_skips_regions(void) {
  steer_vec2 box[4] = {{-50, -50}, {50, -50}, {50, 50}, {-50, 50}};
  steer_vec2 route[10];
  for (int k = 0; k < 10; k++) route[k] = (steer_vec2){4.0 * k, 0};
  steer_path *region = steer_path_create(box, 4, 1);
  steer_path *way = steer_path_create(route, 10, 0);
  steer_entry e[2];
  e[0] = steer_entry_default(STEER_CONTAIN);
  e[0].target.kind = STEER_TARGET_PATH;
  e[0].target.path = region;
  e[1] = steer_entry_default(STEER_FOLLOW);
  e[1].target.kind = STEER_TARGET_PATH;
  e[1].target.path = way;
  steer_program *p = steer_program_create(STEER_WEIGHTED, -1, 0, e, 2);
  steer_world *w = steer_world_create(NULL);
  size_t i = add_agent(w, 0, 0, p);
  size_t k = 99;
  CHECK(steer_agent_set_path_index(w, i, 7) == STEER_OK, "index 7 of 10");
  CHECK(steer_agent_path(w, i, NULL, &k) == way && k == 7, "waypoint %zu", k);
  CHECK(steer_agent_set_path_index(w, i, 10) == STEER_EINVAL, "index 10");
  /* a region and no route: none to set */
  e[1] = steer_entry_default(STEER_SEEK);
  e[1].target = point(5, 5);
  steer_program *q = steer_program_create(STEER_WEIGHTED, 0.5, 0, e, 2);
  CHECK(steer_agent_set_program(w, i, q) == STEER_OK, "set_program");
  CHECK(steer_agent_path(w, i, NULL, &k) == NULL, "no route");
  CHECK(steer_agent_set_path_index(w, i, 1) == STEER_EINVAL,
        "set_path_index without a route");
  steer_world_destroy(w);
  steer_program_release(p);
  steer_program_release(q);
  steer_path_release(region);
  steer_path_release(way);
}

static void programs_a_snapshot_keeps(void) {
  steer_vec2 pts[2] = {{0, 0}, {1, 0}};
  steer_path *path = steer_path_create(pts, 2, 0);
  steer_vec2 slot = {-1, 0};
  steer_formation *f = steer_formation_create(point(0, 0), &slot, 1);
  steer_entry e = steer_entry_default(STEER_INTERPOSE);
  e.target = point(0, 0);
  e.other.kind = STEER_TARGET_PATH; /* interpose's second end a path */
  e.other.path = path;
  CHECK(steer_program_create(STEER_WEIGHTED, -1, 0, &e, 1) == NULL,
        "an `other` of a path");
  e = steer_entry_default(STEER_SEEK);
  e.target.kind = STEER_TARGET_FORMATION; /* seek aimed at a formation */
  e.target.formation = f;
  CHECK(steer_program_create(STEER_WEIGHTED, -1, 0, &e, 1) == NULL,
        "a formation target on seek");
  e = steer_entry_default(STEER_FORMATION); /* no formation given */
  CHECK(steer_program_create(STEER_WEIGHTED, -1, 0, &e, 1) == NULL,
        "a formation entry without its formation");
  /* the kept kinds still make programs whose snapshots restore */
  e = steer_entry_default(STEER_INTERPOSE);
  e.target = point(0, 0);
  e.other = point(4, 0);
  steer_program *p = steer_program_create(STEER_WEIGHTED, -1, 0, &e, 1);
  CHECK(p != NULL, "interpose between two points");
  steer_world *w = steer_world_create(NULL);
  size_t i = add_agent(w, 1, 1, p);
  /* nor can set_target make such an entry (snapshot-safe, as created) */
  steer_target aim = {.kind = STEER_TARGET_FORMATION, .formation = f};
  CHECK(steer_agent_set_target(w, i, 0, aim) == STEER_EINVAL,
        "set_target of a formation on interpose");
  buffer b = {NULL, 0};
  CHECK(steer_world_snapshot(w, gather, &b) == STEER_OK, "snapshot");
  const char *why = NULL;
  steer_world *copy = steer_world_restore(b.bytes, b.n, NULL, NULL, &why);
  CHECK(copy != NULL, "restore: %s", why ? why : "");
  /* no error pointer: a refusal says nothing, and nothing breaks */
  CHECK(steer_world_restore("junk", 4, NULL, NULL, NULL) == NULL,
        "restore of junk");
  CHECK(steer_navgrid_from_map("junk", 4, 1, (steer_vec2){0, 0}, NULL) ==
            NULL, "from_map of junk");
  steer_world_destroy(copy);
  steer_world_destroy(w);
  free(b.bytes);
  steer_program_release(p);
  steer_formation_release(f);
  steer_path_release(path);
}

int main(void) {
  formation_outlives_world();
  path_index_skips_regions();
  programs_a_snapshot_keeps();
  return oracle_report();
}
