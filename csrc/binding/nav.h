/* nav.h - what the rest of the binding uses of the navigation binding
 * (nav.c): flow fields as program targets. */
#ifndef STEER_BINDING_NAV_H
#define STEER_BINDING_NAV_H

#include "binding.h"

#define NAVGRID_MT "steer.NavGrid"
#define FLOWFIELD_MT "steer.FlowField"

/* The flow field at idx, or NULL when it is not one. */
steer_flowfield *test_flowfield(lua_State *L, int idx);
/* Pushes the handle of f: the one Lua holds, if any, else a new one (which
   retains f), so that a:behaviors() gives back the field it was given. */
void push_flowfield(lua_State *L, steer_flowfield *f);
/* Registers the types, and a:flow on agents (after open_agent). */
void open_nav(lua_State *L);
int l_navgrid_new(lua_State *L);
int l_navgrid_from_map(lua_State *L);

#endif
