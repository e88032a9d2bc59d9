---@meta steer
-- LuaCATS annotations of the steer module (for lua-language-server and
-- other LuaCATS tools): types, fields, parameters and results of every
-- public function and method as the module implements it, behavior
-- programs included. This file holds no code: the functions
-- below are empty stubs, and requiring it does nothing useful.
-- spec/annotations_spec.lua fails when a public function or method of the
-- loaded module has no annotation here.

-- ---- types shared by the API ------------------------------------------------

---A point as one value: `{x, y}` or `{x = x, y = y}`. Wherever a point is taken
---(agent methods, program targets, set_target, path points) these two forms
---are; methods and set_target also take two numbers x, y or an agent (its position).
---@alias steer.Point number[]|{x: number, y: number}

---Where a behavior aims: an agent (its current position), a point `{x, y}` /
---`{x = x, y = y}`, a path, or a shared point (wherever it is at the step).
---@alias steer.Target steer.Agent|steer.Point|steer.Path|steer.SharedPoint

---Which neighbors a query counts.
---@class steer.NeighborFilter
---@field groups? integer[] groups 0..31 that count (default all)
---@field fov? number view cone in degrees, (0, 360] (default 360)
---@field angle? number world:query: the cone's direction in radians (default 0; a:neighbors uses the agent's angle)

---world:nearest's filter: a NeighborFilter, and whether the centre must see the agent.
---@class steer.NearestFilter: steer.NeighborFilter
---@field visible? boolean only agents the centre sees (world:line_of_sight: no wall or obstacle between; default false)

---Which neighbors a flocking method counts: its program entry's filter.
---@class steer.FlockFilter
---@field groups? integer[] groups 0..31 that count (default all)
---@field fov? number view cone in degrees around the agent's angle, (0, 360] (default 360)

---Which agents world:query_box yields.
---@class steer.BoxFilter
---@field groups? integer[] groups 0..31 that count (default all)

---A target many programs can hold (`steer.point(x, y)`): setting x, y moves
---every program's target at once (a mouse pointer, a rally point). Snapshots
---keep the sharing: the restored world has one new point for each, which
---`a:behaviors()[k].target` gives back (the same handle from every agent).
---@class steer.SharedPoint
---@field x number
---@field y number

---How a program combines its behaviors' forces.
---@alias steer.Combine "weighted"|"priority"|"prioritized_sum"|"dither"

---Behavior names a program entry may use (the agent methods of the same name).
---@alias steer.BehaviorName "seek"|"flee"|"arrive"|"pursue"|"evade"|"wander"|"avoid_obstacles"|"avoid_walls"|"follow"|"separation"|"alignment"|"cohesion"|"flow"|"avoid_agents"|"offset_pursuit"|"follow_leader"|"formation"|"interpose"|"hide"|"queue"|"contain"|"face"|"look_where_going"|"match_orientation"

---Which entries of a program a call changes: an index (1-based), a tag or a behavior name.
---@alias steer.Which integer|string

---The module: stateless force functions and constructors.
---@class steer
---@field version string the library version, e.g. "0.1.0"
---@field limit number the largest magnitude any number given to steer may have (1e150)
---@field testing steer.testing hooks for tests (allocation failure injection, clock, SIMD width)
---@field ffi steer.ffi|false the LuaJIT FFI fast path's control table where it is active; false elsewhere (Lua 5.x, JIT off)
local steer = {}

---Options of `steer.world`.
---@class steer.WorldDef
---@field cell_size? number spatial grid cell side (default 5, > 0)
---@field seed? integer seeds every agent's random generator (default 1)
---@field bounds? number[] exactly `{w, h}`: positions clamped into [0, w] x [0, h], or wrapped with `wrap`
---@field wrap? boolean true (a boolean only; default false) with bounds: a torus, positions wrap into [0, w) x [0, h) and distances use the shortest wrapped offset
---@field capacity? integer agents to reserve room for (0..2^26, default 0): a world that knows its size never reallocates while it fills
---@field threads? integer threads world:step may use (1..64, default 1); only steps of 4096 agents or more are split, and results are bit-identical for any count
---@field max_step? number longest step (> 0, default none): world:step(dt) with dt > max_step runs n = ceil(dt / max_step) equal steps of dt / n (at most 64), so a long frame neither overshoots springs nor passes walls

---Fields of `world:add`; any other string key becomes the agent's own data.
---@class steer.AgentDef
---@field x? number position (default 0)
---@field y? number
---@field vx? number velocity (default 0)
---@field vy? number
---@field max_speed? number default 1, >= 0
---@field max_force? number default 1, >= 0
---@field radius? number default 0.5, >= 0
---@field wander_radius? number default 1.2
---@field wander_distance? number default 2
---@field wander_jitter? number default 0.5
---@field angle? number facing in radians, kept in (-pi, pi] (default 0)
---@field angular_velocity? number rad/s (default 0)
---@field max_turn_rate? number rad/s, >= 0 (default steer.limit: unlimited)
---@field max_angular_acceleration? number rad/s^2, >= 0 (default steer.limit: unlimited)
---@field min_speed? number a moving agent never goes slower (default 0)
---@field turn_velocity? boolean the velocity's direction turns at most max_turn_rate * dt per step (default false)
---@field group? integer 0..31 (default 0): which flocking entries count it (their `groups`)
---@field ghost? boolean never anyone's neighbor, but can be a target (default false)
---@field program? steer.Program|steer.ProgramDef the agent's behaviors, as a:set_behaviors takes them
---@field [string] any the agent's own data; a key that misspells a field (`maxSpeed`, `max_sped`) raises "did you mean ...?"

---An obstacle's definition: a circle, plus the game's own keys.
---@class steer.ObstacleDef
---@field x number
---@field y number
---@field radius number >= 0
---@field [string] any the obstacle's own data

---A wall's definition: a segment from (x1, y1) to (x2, y2), plus the game's own keys.
---@class steer.WallDef
---@field x1 number
---@field y1 number
---@field x2 number
---@field y2 number
---@field solid? "left" one-sided: solid on the left of (x1, y1) -> (x2, y2) (collide, avoid_walls)
---@field [string] any the wall's own data

---A circle obstacle's handle. Writing x, y or radius moves it (the spatial
---index follows). A removed handle raises like a removed agent.
---@class steer.Obstacle
---@field x number
---@field y number
---@field radius number
---@field id integer read-only, stable
---@field kind "obstacle" read-only
---@field alive boolean read-only
---@field [string] any the obstacle's own data
local Obstacle = {}

---Removes the obstacle from its world.
function Obstacle:remove() end

---A wall's handle. Writing x1, y1, x2 or y2 moves it.
---@class steer.Wall
---@field x1 number
---@field y1 number
---@field x2 number
---@field y2 number
---@field id integer read-only, stable
---@field kind "wall" read-only
---@field alive boolean read-only
---@field [string] any the wall's own data
local Wall = {}

---Removes the wall from its world.
function Wall:remove() end

---A polygon's handle: its edges are walls (solid inside, seen from both sides).
---@class steer.Polygon
---@field edges integer read-only: how many walls it has
---@field id integer read-only, stable
---@field kind "polygon" read-only
---@field alive boolean read-only
---@field [string] any the polygon's own data
local Polygon = {}

---Removes the polygon (every edge) from its world.
function Polygon:remove() end

---A segment as steer.walls_from_tiles returns it and world:add_walls takes it.
---@class steer.Segment
---@field x1 number
---@field y1 number
---@field x2 number
---@field y2 number
---@field solid? "left" one-sided, solid on its left (walls_from_tiles' segments all are)

---What world:raycast looks at (defaults: walls and obstacles, not agents).
---@class steer.RayFilter
---@field walls? boolean default true
---@field obstacles? boolean default true
---@field agents? boolean default false
---@field ignore? steer.Agent|steer.Obstacle|steer.Wall|steer.Polygon|(steer.Agent|steer.Obstacle|steer.Wall|steer.Polygon)[] what the ray passes through: its caster, a tower's own polygon (a list: at most one agent and one shape)

---A containment region: {x1, y1, x2, y2} (a box from two corners), a polygon
---{x1, y1, x2, y2, x3, y3, ...} (flat, at least 3 points), a list of points
---{ {x, y}, {x =, y =}, steer.point(x, y), ... } or a steer.Path; it must
---enclose some area.
---@alias steer.Region number[]|(steer.Point|steer.SharedPoint)[]|steer.Path

---Options of `a:follow`.
---@class steer.FollowOptions
---@field arrival_radius? number advance to the next waypoint within this distance (default 0.6)
---@field slowing_radius? number arrive at the last waypoint slowing down within it (default 2)
---@field path_radius? number follow as a corridor of this half-width (default: waypoint by waypoint)
---@field look_ahead? number corridor: seconds of prediction, > 0 (default 1)

---One entry of a behavior program: `{ "seek", target = player, weight = 2 }`.
---Entries take their method's parameters by name.
---@class steer.BehaviorSpec
---@field [1] steer.BehaviorName the behavior
---@field weight? number multiplies the behavior's force (default 1)
---@field tag? string a name for set_target / set_weight / active_behavior, one entry's per program (not a number: numbers select entries by index)
---@field probability? number for combine = "dither": the chance this behavior is considered (not face, look_where_going, match_orientation)
---@field target? steer.Target seek, flee, arrive, pursue, evade, follow, offset_pursuit, follow_leader, hide, face, match_orientation: what to aim at
---@field radius? number separation, alignment, cohesion, avoid_agents, follow_leader: the neighbor radius
---@field feeler_length? number avoid_obstacles, avoid_walls, contain (default 3)
---@field region? steer.Region contain: the box, polygon or path to stay inside
---@field hysteresis? number avoid_obstacles, avoid_walls: keeps an avoidance going a little longer, against flicker
---@field whiskers? boolean avoid_walls: Buckland's two side feelers (half the length, 45 degrees either side) too; default false
---@field slowing_radius? number arrive, follow, flow, offset_pursuit, follow_leader, formation, interpose, hide, queue
---@field panic_radius? number flee, evade: no force when the target is farther
---@field path? steer.Path follow: the path
---@field field? steer.FlowField flow: the flow field to follow
---@field arrival_radius? number seek, arrive, follow
---@field groups? integer[] separation, alignment, cohesion, avoid_agents: the groups (0..31) that count as neighbors (default all)
---@field fov? number separation, alignment, cohesion, avoid_agents: view cone in degrees around the facing, (0, 360] (default 360); queue: the view cone ahead (default 90)
---@field falloff? "inverse"|"linear"|"inverse_square" separation: how a neighbor's push falls with distance (default "inverse")
---@field path_radius? number follow: the corridor's half-width (default: waypoint by waypoint)
---@field look_ahead? number follow in a corridor: seconds of prediction, > 0 (default 1)
---@field start? integer|"nearest" follow: the waypoint to begin at (default 1)
---@field offset? steer.Point offset_pursuit (required): `{x, y}`, x ahead of the target and y to its left, in its frame
---@field fit? boolean offset_pursuit, follow_leader: the slot (the spot behind) moved onto ground the agent can stand on, as formation slots (default true)
---@field distance? number follow_leader: how far behind (default 2); hide: behind the obstacle's boundary (1); queue: how far ahead to look (3)
---@field between? (steer.Point|steer.Agent|steer.SharedPoint)[] interpose: `{a, b}`, two agents or points (a steer.point too)
---@field formation? steer.Formation formation: the formation to join
---@field time_horizon? number avoid_agents: seconds of anticipation, > 0 (default 3)
---@field personal_space? number avoid_agents: room kept beyond touching, a share of the two radii's sum, >= 0 (default 0.5)

---A behavior program: entries in priority order plus how to combine them.
---@class steer.ProgramDef
---@field combine? steer.Combine default "weighted"
---@field smoothing? number force = lerp(previous, raw, smoothing), in (0, 1]: 1 is no smoothing, 0.1 very smooth
---@field hold? number priority: seconds a winner is kept before another may take over
---@field turn? "velocity" the angle follows the velocity within the agent's turn limits (not with face, look_where_going or match_orientation entries)
---@field orca? boolean|steer.OrcaOptions turns the program's velocity into the closest collision-free one (ORCA, docs/API.md section 18)
---@field collide? boolean walls stop the agents' bodies: never across a wall, pushed out of walls and obstacles (docs/API.md 3.6)
---@field [integer] steer.BehaviorSpec

---ORCA's parameters (the `orca` program field; `true` takes the defaults).
---@class steer.OrcaOptions
---@field time_horizon? number seconds of safety against other agents, > 0 (default 5)
---@field obstacle_time_horizon? number seconds of safety against obstacles and walls, > 0 (default 2)
---@field neighbor_radius? number|"auto" agents considered within this distance (default "auto": 4 body radii, at least 10)
---@field max_neighbors? integer the nearest ones, 0..64 (default 10)
---@field margin? number two agents plan to keep (r_i + r_j) * (1 + margin) apart, 0..1 (default 0.02; 0: the paper's ORCA)
---@field push? boolean|integer after each step, push bodies that overlap by more than 2% of r_i + r_j apart: this many sweeps, 0..256, and up to 4 times as many (at most 256) while pairs still deeper than 3% get less deep (true: 64; default false = 0)
---@field detour? boolean an agent other agents hold still for 2 s turns 60 degrees right of its way for 4 s, then rests 16 s (default true; false: the paper's ORCA)
---@field settle? boolean agents sent to one goal (their first arrive entry's target) come to rest there: one touching an agent nearer the goal and at rest already rests too (default false; docs/API.md 18.1.4)
---@field dt? number a:orca_velocity only: the time to resolve an overlap in (default 1/60)

---A compiled program, shared by many agents (`steer.program`).
---@class steer.Program

---What `world:stats()` reports (integers).
---@class steer.WorldStats
---@field agents integer live agents now
---@field programs integer live agents with a program now
---@field memory integer bytes the world has allocated now
---@field stepped integer agents the last step moved (0 before the first)
---@field candidates integer neighbor candidates examined by the last step
---@field neighbors integer neighbors found by the last step

---A world's whole state as a binary string (`world:snapshot()`), for `steer.restore`.
---@alias steer.Snapshot string

-- ---- steer.* ------------------------------------------------------------------

---Scales (x, y) down to length max if it is longer.
---@param x number
---@param y number
---@param max number >= 0
---@return number x
---@return number y
function steer.clamp(x, y, max) end

---The unit vector along (x, y); (0, 0) when its length is at most 1e-5.
---@param x number
---@param y number
---@return number x
---@return number y
function steer.normalize(x, y) end

---The length of (x, y), without overflow.
---@param x number
---@param y number
---@return number
function steer.length(x, y) end

---a + (b - a) * t, used to smooth forces.
---@param ax number
---@param ay number
---@param bx number
---@param by number
---@param t number
---@return number x
---@return number y
function steer.lerp(ax, ay, bx, by, t) end

---Seek: clamp(normalize(t - p) * max_speed - v, max_force).
---@param px number position
---@param py number
---@param vx number velocity
---@param vy number
---@param tx number target
---@param ty number
---@param max_speed number
---@param max_force number
---@return number fx
---@return number fy
function steer.seek(px, py, vx, vy, tx, ty, max_speed, max_force) end

---Flee: seek with the desired velocity pointing away from the target.
---@param px number position
---@param py number
---@param vx number velocity
---@param vy number
---@param tx number threat
---@param ty number
---@param max_speed number
---@param max_force number
---@param panic_radius? number 0, 0 when |t - p| > panic_radius
---@return number fx
---@return number fy
function steer.flee(px, py, vx, vy, tx, ty, max_speed, max_force, panic_radius) end

---Arrive: seek whose desired speed ramps down linearly inside slowing_radius.
---@param px number position
---@param py number
---@param vx number velocity
---@param vy number
---@param tx number target
---@param ty number
---@param max_speed number
---@param max_force number
---@param slowing_radius number
---@return number fx
---@return number fy
function steer.arrive(px, py, vx, vy, tx, ty, max_speed, max_force, slowing_radius) end

---Pursue: seek t + tv * T with T = |t - p| / max_speed.
---@param px number position
---@param py number
---@param vx number velocity
---@param vy number
---@param tx number quarry position
---@param ty number
---@param tvx number quarry velocity
---@param tvy number
---@param max_speed number
---@param max_force number
---@return number fx
---@return number fy
function steer.pursue(px, py, vx, vy, tx, ty, tvx, tvy, max_speed, max_force) end

---Evade: flee t + tv * T with T = |t - p| / max_speed.
---@param px number position
---@param py number
---@param vx number velocity
---@param vy number
---@param tx number threat position
---@param ty number
---@param tvx number threat velocity
---@param tvy number
---@param max_speed number
---@param max_force number
---@param panic_radius? number 0, 0 when |t - p| > panic_radius (t now, not predicted)
---@return number fx
---@return number fy
function steer.evade(px, py, vx, vy, tx, ty, tvx, tvy, max_speed, max_force, panic_radius) end

---clamp(sum of wᵢ * fᵢ, max_force) over groups (fx, fy, w).
---@param max_force number
---@param ... number fx1, fy1, w1, fx2, fy2, w2, ...
---@return number fx
---@return number fy
function steer.weighted(max_force, ...) end

---The first force with squared length > 1e-4, clamped to max_force; else 0, 0.
---@param max_force number
---@param ... number fx1, fy1, fx2, fy2, ... in priority order
---@return number fx
---@return number fy
function steer.priority(max_force, ...) end

---Adds the forces in order until the total's length reaches max_force
---(the force that crosses it is cut to fit).
---@param max_force number
---@param ... number fx1, fy1, fx2, fy2, ... in priority order
---@return number fx
---@return number fy
function steer.prioritized_sum(max_force, ...) end

---The boundary of a tile map's solid (non-zero or true) tiles as segments,
---collinear edges merged, each with its solid side on its left (y up). Tile
---(c, r) (0-based) is tiles[r * w + c + 1] and covers [ox + c cell, ox + (c+1) cell]
---x [oy + r cell, oy + (r+1) cell].
---@param tiles (number|boolean)[] w * h tiles, row by row
---@param w integer
---@param h integer
---@param cell_size number > 0
---@param origin_x? number default 0
---@param origin_y? number default 0
---@return steer.Segment[]
function steer.walls_from_tiles(tiles, w, h, cell_size, origin_x, origin_y) end

---A new world (all fields optional).
---@param def? steer.WorldDef
---@return steer.World
function steer.world(def) end

---A polyline path: `steer.path{ {0, 0}, {4, 0}, {4, 4}, loop = false }`. A
---steer.Path among the points splices its points in (legs of nav:path joined
---into one route: `steer.path{ leg1, leg2, loop = true }`; a joint shared by
---two legs, and a loop's closing point, appear once).
---@param points { [integer]: steer.Point|steer.Path|number, loop?: boolean }
---@return steer.Path
function steer.path(points) end

---A shared moving target for programs: `{ "seek", target = steer.point(x, y) }`.
---@param x number
---@param y number
---@return steer.SharedPoint
function steer.point(x, y) end

---Compiles a behavior program once, to give to many agents with `a:set_behaviors(program)`.
---@param def steer.ProgramDef
---@return steer.Program
function steer.program(def) end

---A new world with the state a snapshot recorded; nil and a message when
---the string is not a valid snapshot. `options.threads` (1..64, default 1):
---the threads its steps may use (a snapshot holds none); `options.max_step`
---(> 0, default none): as `steer.world`'s field.
---@param snapshot steer.Snapshot
---@param options? { threads?: integer, max_step?: number }
---@return steer.World?
---@return string? error
function steer.restore(snapshot, options) end

-- ---- steer.testing, steer.ffi --------------------------------------------------

---Hooks for tests.
---@class steer.testing
local testing = {}

---The next n allocations of this Lua state succeed and the ones after fail;
---nil lifts it.
---@param n? integer
---@return integer? left how many allocations were left before this call (nil: no limit)
function testing.fail_allocations(n) end

---Seconds on a monotonic clock (plain Lua has no sub-second wall clock;
---the benchmarks use it).
---@return number seconds
function testing.clock() end

---How many agents this Lua state's world steps walk at once in a SIMD register: 4 (AVX,
---where the CPU has it), 2 (SSE2, x86-64) or 1; no argument (or more than
---the machine offers) picks the widest. Results are bit-identical at every width: this is for tests and
---comparisons. Returns the width now in use.
---@param width? integer
---@return integer width
function testing.simd(width) end

---Bytes the worlds of this Lua state hold now, and the most they held since
---the previous call (issue 11: dropped worlds are collected in time).
---fail_allocations and simd also act on this Lua state only.
---@return number live
---@return number peak
function testing.memory() end

---The LuaJIT fast path for per-agent calls (`require "steer"` loads it):
---the methods and fields used in per-agent loops call the C core through the
---FFI. Results and errors are the same either way.
---@class steer.ffi
---@field enabled boolean whether the fast path is on
local ffi_path = {}

---Switches the fast path on (the default once loaded) or off (`false`).
---@param on? boolean
---@return steer.ffi
function ffi_path.enable(on) end

-- ---- steer.World -------------------------------------------------------------

---A world of agents, obstacles and walls with a spatial grid.
---`#world` is the number of live agents.
---@class steer.World
---@operator len: integer
local World = {}

---Adds an agent.
---@param def? steer.AgentDef
---@return steer.Agent
function World:add(def) end

---Removes an agent; its handle's simulation fields and methods then raise
---"agent has been removed", its own keys (the game's data) still read.
---@param agent steer.Agent
function World:remove(agent) end

---The live agent with this id, or nil.
---@param id integer
---@return steer.Agent?
function World:get(id) end

---Iterates over the agents present when the loop starts:
---`for a in world:agents() do ... end`. Agents added in the loop are not
---visited (the loop always ends), agents removed before they are reached are
---skipped.
---@return fun(): steer.Agent?
function World:agents() end

---Iterates over the agents whose centre is within radius of (x, y), from the grid
---(never ghosts). The centre may also be one value: an agent (its position now; it is
---among the results), a shared point or a table point.
---@overload fun(self: steer.World, centre: steer.Agent|steer.Point|steer.SharedPoint, radius: number, filter?: steer.NeighborFilter): fun(): steer.Agent?
---@param x number
---@param y number
---@param radius number
---@param filter? steer.NeighborFilter only these groups, within this view cone
---@return fun(): steer.Agent?
function World:query(x, y, radius, filter) end

---The agent world:query(centre, radius, filter) would yield nearest the centre, and its
---distance; nil when there is none. A centre that is an agent of this world is left out
---(a filter's fov turns with its facing). Ties go to the lower id. `visible = true`:
---the nearest the centre sees (world:line_of_sight).
---@overload fun(self: steer.World, x: number, y: number, radius: number, filter?: steer.NearestFilter): steer.Agent?, number?
---@param centre steer.Agent|steer.Point|steer.SharedPoint
---@param radius number
---@param filter? steer.NearestFilter only these groups, within this view cone, in sight
---@return steer.Agent? agent
---@return number? distance
function World:nearest(centre, radius, filter) end

---Adds a circle obstacle (other keys are its own data); returns its handle.
---On a torus its centre is kept inside it.
---@param def steer.ObstacleDef
---@return steer.Obstacle
function World:add_obstacle(def) end

---Adds a wall segment (other keys are its own data); returns its handle.
---@param def steer.WallDef
---@return steer.Wall
function World:add_wall(def) end

---Adds the edges of a polygon `{ x1, y1, x2, y2, ..., closed = true }` (or
---`{ {x, y}, {x =, y =}, steer.point(x, y), ..., closed = true }`) as walls
---under one handle (closed = false: a polyline). Solid inside (its edges block
---from both sides); either winding. ORCA takes a convex closed polygon's edges
---from outside only, as RVO2 does.
---@param def table flat coordinates or points, at least 2, plus closed and own keys
---@return steer.Polygon
function World:add_polygon(def) end

---Adds many walls at once (all or, out of memory, none); returns how many.
---@param list steer.Segment[]
---@return integer
function World:add_walls(list) end

---Iterates the obstacles' handles present when the loop starts (removing
---while iterating is fine; obstacles added during the loop are not visited).
---@return fun(world: steer.World, previous?: steer.Obstacle): steer.Obstacle? next for a generic `for` (with the two values after it; not callable alone)
---@return steer.World world
---@return nil
function World:obstacles() end

---Iterates the handles of walls and polygons, as obstacles() does.
---@return fun(world: steer.World, previous?: steer.Wall|steer.Polygon): (steer.Wall|steer.Polygon)? next for a generic `for` (with the two values after it; not callable alone)
---@return steer.World world
---@return nil
function World:walls() end

---Every wall segment (polygon edges included) as a flat table
---{x1, y1, x2, y2, ...} for drawing, reusing t; and the segment count.
---@param t? number[]
---@return number[] segments
---@return integer n segments (the table holds 4n numbers)
function World:segments(t) end

---Removes every obstacle.
function World:clear_obstacles() end

---Removes every wall and polygon.
function World:clear_walls() end

---The nearest hit on the segment (x1, y1) -> (x2, y2) (on a torus: to the
---nearest image of the end), or nil. Allocates no table. Each end may also be
---an agent, a shared point or a table point (as line_of_sight takes them); an
---agent at the start is left out of the hits.
---@overload fun(self: steer.World, a: steer.Agent|steer.SharedPoint|steer.Point, b: steer.Agent|steer.SharedPoint|steer.Point, filter?: steer.RayFilter): number?, number?, number?, number?, number?, ("wall"|"obstacle"|"agent")?, (steer.Wall|steer.Polygon|steer.Obstacle|steer.Agent)?
---@overload fun(self: steer.World, x1: number, y1: number, b: steer.Agent|steer.SharedPoint|steer.Point, filter?: steer.RayFilter): number?, number?, number?, number?, number?, ("wall"|"obstacle"|"agent")?, (steer.Wall|steer.Polygon|steer.Obstacle|steer.Agent)?
---@overload fun(self: steer.World, a: steer.Agent|steer.SharedPoint|steer.Point, x2: number, y2: number, filter?: steer.RayFilter): number?, number?, number?, number?, number?, ("wall"|"obstacle"|"agent")?, (steer.Wall|steer.Polygon|steer.Obstacle|steer.Agent)?
---@param x1 number
---@param y1 number
---@param x2 number
---@param y2 number
---@param filter? steer.RayFilter
---@return number? fraction in [0, 1]; nil (alone) when nothing is hit
---@return number? hit_x
---@return number? hit_y
---@return number? normal_x
---@return number? normal_y
---@return ("wall"|"obstacle"|"agent")? kind
---@return (steer.Wall|steer.Polygon|steer.Obstacle|steer.Agent)? handle
function World:raycast(x1, y1, x2, y2, filter) end

---True when no wall or obstacle lies between a and b; each end is an agent,
---a shared point, a point {x, y} / {x =, y =}, or two numbers x, y.
---@param a steer.Agent|steer.SharedPoint|steer.Point|number
---@param b steer.Agent|steer.SharedPoint|steer.Point|number
---@param ... number
---@return boolean
function World:line_of_sight(a, b, ...) end

---Iterates the agents whose centre lies in the box (corners in any order;
---on a torus, any image), of the filter's groups, found when called.
---@param x1 number
---@param y1 number
---@param x2 number
---@param y2 number
---@param filter? steer.BoxFilter only these groups (no view cone in a box)
---@return fun(): steer.Agent?
function World:query_box(x1, y1, x2, y2, filter) end

---Steps every agent's program by dt: all forces from one snapshot, then all
---integrations (agents without a program coast), then the grid. With the
---world's `max_step`, a longer dt runs as ceil(dt / max_step) equal steps.
---@param dt number > 0
function World:step(dt) end

---Counts of the world and of its last step.
---@return steer.WorldStats
function World:stats() end

---A copy of the whole world state, for `steer.restore` (flow fields that
---programs follow and their grids included: the restored world gets its own).
---@return steer.Snapshot
function World:snapshot() end

---Frees the world now (also `__gc` and, in Lua 5.4, `__close`); idempotent.
---Its handles and iterators then raise "world is closed".
function World:close() end

---Every agent's position in one call (for drawing): a flat array
---{x1, y1, x2, y2, ...} and the agent count. `into` is reused when given
---(entries past the end are cleared). The order is the world's internal
---one, the same as world:ids() until agents are added, removed or stepped.
---@param into? number[]
---@return number[] positions
---@return integer n
function World:positions(into) end

---Every agent's velocity in one call: {vx1, vy1, ...} and the agent count,
---in the order of world:positions(); `into` is reused when given.
---@param into? number[]
---@return number[] velocities
---@return integer n
function World:velocities(into) end

---@class steer.AddManySpec
---@field n? integer how many agents (else the length of the array fields)
---@field x? number|number[] one number for every agent, or one per agent
---@field y? number|number[]
---@field vx? number|number[]
---@field vy? number|number[]
---@field max_speed? number|number[]
---@field max_force? number|number[]
---@field radius? number|number[]
---@field wander_radius? number|number[]
---@field wander_distance? number|number[]
---@field wander_jitter? number|number[]
---@field angle? number|number[]
---@field angular_velocity? number|number[]
---@field max_turn_rate? number|number[]
---@field max_angular_acceleration? number|number[]
---@field min_speed? number|number[]
---@field group? integer|integer[] 0..31
---@field ghost? boolean|boolean[]
---@field turn_velocity? boolean|boolean[]
---@field spread? number the agents spread over a disc of this radius around their x, y (a sunflower spiral; default 0)

---Adds many agents at once from columns of values, all given `behaviors`
---(a program table or steer.Program) if any. Checks every value first and
---adds all or none; makes no handles (use world:agents() or world:get). Any
---key but the columns, n and spread raises (no own data here).
---@param spec steer.AddManySpec
---@param behaviors? table|steer.Program
---@return integer added
function World:add_many(spec, behaviors) end

---The agents' ids in the order of world:positions(); `into` is reused when given.
---@param into? integer[]
---@return integer[] ids
---@return integer n
function World:ids(into) end

---The world's bounds: w, h and whether it wraps; nil for an unbounded world.
---@return number? w
---@return number? h
---@return boolean? wrap
function World:bounds() end

---LuaJIT with the FFI fast path only: zero-copy pointers to the x, y, vx, vy
---arrays (0-based, internal order) and the agent count; valid until agents
---are added, removed or stepped, or the world is closed.
---@return ffi.cdata* x
---@return ffi.cdata* y
---@return ffi.cdata* vx
---@return ffi.cdata* vy
---@return integer n
function World:columns() end

-- ---- steer.Agent -------------------------------------------------------------

---An agent handle. Fields read and write by name; any other key is the
---agent's own data (`a.name = "guard"`).
---@class steer.Agent
---@field x number position
---@field y number
---@field vx number velocity
---@field vy number
---@field max_speed number >= 0
---@field max_force number >= 0
---@field radius number >= 0
---@field wander_radius number the wander circle's radius
---@field wander_distance number how far ahead the wander circle is
---@field wander_jitter number how much the wander angle moves per call
---@field wander_angle number the current wander angle (radians)
---@field id integer read-only: stable, 1-based, never reused
---@field speed number read-only: the length of the velocity
---@field heading number read-only: atan2(vy, vx)
---@field alive boolean read-only: false once removed
---@field settled boolean read-only: its program's orca.settle had it at rest in the last step
---@field angle number facing in radians, kept in (-pi, pi]
---@field angular_velocity number rad/s
---@field max_turn_rate number rad/s (steer.limit: unlimited)
---@field max_angular_acceleration number rad/s^2 (steer.limit: unlimited)
---@field min_speed number a moving agent never goes slower
---@field turn_velocity boolean the velocity turns at most max_turn_rate * dt per step; the agent faces it
---@field group integer 0..31
---@field ghost boolean never anyone's neighbor, but can be a target
---@field [string] any the agent's own data (still readable once removed); a key that misspells a field raises "did you mean ...?"
local Agent = {}

---Seek a point (x, y, `{x, y}`, `{x = x, y = y}`) or another agent's position.
---@param x number|steer.Agent|steer.Point|steer.SharedPoint
---@param y? number
---@return number fx
---@return number fy
---@overload fun(self: steer.Agent, target: steer.Agent|steer.Point|steer.SharedPoint): number, number
function Agent:seek(x, y) end

---Flee a point or an agent; beyond panic_radius (if given) the force is 0.
---@param x number|steer.Agent|steer.Point|steer.SharedPoint
---@param y? number
---@param panic_radius? number
---@return number fx
---@return number fy
---@overload fun(self: steer.Agent, threat: steer.Agent|steer.Point|steer.SharedPoint, panic_radius?: number): number, number
function Agent:flee(x, y, panic_radius) end

---Arrive at a point or an agent, slowing down within slowing_radius (default 2).
---@param x number|steer.Agent|steer.Point|steer.SharedPoint
---@param y? number
---@param slowing_radius? number
---@return number fx
---@return number fy
---@overload fun(self: steer.Agent, target: steer.Agent|steer.Point|steer.SharedPoint, slowing_radius?: number): number, number
function Agent:arrive(x, y, slowing_radius) end

---Pursue agent b, predicting it with T = distance / self.max_speed.
---@param b steer.Agent
---@return number fx
---@return number fy
function Agent:pursue(b) end

---Evade agent b, predicting it with T = distance / self.max_speed; beyond
---panic_radius (if given; b where it is now) the force is 0, as flee's.
---@param b steer.Agent
---@param panic_radius? number
---@return number fx
---@return number fy
function Agent:evade(b, panic_radius) end

---Wander: advances the agent's generator and wander angle.
---@return number fx
---@return number fy
function Agent:wander() end

---Steer aside from the nearest obstacle the feeler touches anywhere along its length
---(feeler default 3): from the obstacle's centre toward the feeler's nearest point.
---@param feeler_length? number
---@return number fx
---@return number fy
function Agent:avoid_obstacles(feeler_length) end

---Push back from the first wall the feeler crosses (feeler default 3).
---With whiskers, Buckland's two side feelers of half the length at 45
---degrees either side too: the longest of the three pushes (the deepest).
---@param feeler_length? number
---@param whiskers? boolean default false
---@return number fx
---@return number fy
function Agent:avoid_walls(feeler_length, whiskers) end

---Steer back inside a region before leaving it: a force 0 or max_force long.
---Outside: toward the region's nearest boundary point. Inside: when the feeler
---(max(feeler_length, speed^2 / max_force) long, feeler_length default 3)
---crosses an edge, from its tip toward the nearest point of the first edge crossed.
---@param region steer.Region
---@param feeler_length? number >= 0
---@return number fx
---@return number fy
function Agent:contain(region, feeler_length) end

---Follow a path waypoint by waypoint, arriving at the last one.
---@param path steer.Path
---@param options? steer.FollowOptions
---@return number fx
---@return number fy
function Agent:follow(path, options) end

---The 1-based waypoint the agent heads for on the path it follows (on
---`path`: 1 when it follows another one); nil when it never followed one.
---@param path? steer.Path
---@return integer?
function Agent:path_index(path) end

---Separation from the neighbors within radius.
---@param radius number
---@param filter? steer.FlockFilter the program entry's groups and view cone
---@return number fx
---@return number fy
function Agent:separation(radius, filter) end

---Alignment with the neighbors within radius.
---@param radius number
---@param filter? steer.FlockFilter the program entry's groups and view cone
---@return number fx
---@return number fy
function Agent:alignment(radius, filter) end

---Cohesion toward the centre of the neighbors within radius.
---@param radius number
---@param filter? steer.FlockFilter the program entry's groups and view cone
---@return number fx
---@return number fy
function Agent:cohesion(radius, filter) end

---The velocity closest to (vx, vy) in the agent's ORCA half-planes (neighbors, obstacles, walls), at most max_speed.
---@param vx number preferred velocity
---@param vy number
---@param opts? steer.OrcaOptions default: the program's orca field, else the defaults
---@return number vx
---@return number vy
function Agent:orca_velocity(vx, vy, opts) end

---Anticipatory avoidance: a force from the time to collision with each agent within radius (power law, Karamouzas et al. 2014), plus a push from neighbors within personal_space times the radii's sum beyond touching.
---@param time_horizon? number seconds, > 0 (default 3)
---@param radius? number neighbors within it (default 10)
---@param personal_space? number room kept beyond touching, a share of the two radii's sum, >= 0 (default 0.5)
---@return number fx
---@return number fy
function Agent:avoid_agents(time_horizon, radius, personal_space) end

---Applies a force for dt: clamp it to max_force, v = clamp(v + f dt, max_speed), p = p + v dt;
---and an angular acceleration: omega = clamp(omega + angular dt, max_turn_rate), angle += omega dt.
---@param fx number
---@param fy number
---@param dt number > 0
---@param angular? number rad/s^2 (default 0)
function Agent:apply(fx, fy, dt, angular) end

---The angular acceleration turning the agent toward a point or agent within one step of dt.
---@param x number|steer.Agent|steer.Point|steer.SharedPoint
---@param y? number
---@param dt? number > 0 (default 1/60)
---@return number angular rad/s^2
function Agent:face(x, y, dt) end

---The angular acceleration turning the agent toward its velocity (braking when still).
---@param dt? number > 0 (default 1/60)
---@return number angular
function Agent:look_where_going(dt) end

---The angular acceleration turning the agent toward another agent's angle.
---@param other steer.Agent
---@param dt? number > 0 (default 1/60)
---@return number angular
function Agent:match_orientation(other, dt) end

---Moves the agent along the path it follows: it heads for waypoint k (1-based) next.
---@param k integer
function Agent:set_path_index(k) end

---Iterates over the other agents within radius (never ghosts).
---@param radius number
---@param filter? steer.NeighborFilter only these groups, within a cone around the agent's angle
---@return fun(): steer.Agent?
function Agent:neighbors(radius, filter) end

---Sets the state of the agent's random generator.
---@param n integer
function Agent:seed(n) end

---The position.
---@return number x
---@return number y
function Agent:position() end

---The velocity.
---@return number vx
---@return number vy
function Agent:velocity() end

---The world the agent belongs to (even after removal).
---@return steer.World
function Agent:world() end

---Gives the agent a behavior program that `world:step` runs (nil clears it).
---@param program steer.ProgramDef|steer.Program|nil
function Agent:set_behaviors(program) end

---Retargets the program entry `which` selects: to an agent, a path, a
---point `{x, y}` / `{x = x, y = y}`, or the point (x, y) given as two numbers.
---An interpose entry takes its two ends: `a:set_target(k, a, b)`, each end an
---agent, a point, or two numbers (`a:set_target(k, 0, 0, 4, 0)`). A path may
---come with nav:path's length and cost: `a:set_target("chase", nav:path(a, b))`.
---A flow entry takes a steer.FlowField only: `a:set_target("chase", field)`;
---a formation entry a steer.Formation (the agent leaves its formation for it).
---@param which steer.Which
---@param target steer.Target|steer.FlowField|steer.Formation|number
---@param y? number
---@overload fun(self: steer.Agent, which: steer.Which, x: number, y: number)
---@overload fun(self: steer.Agent, which: steer.Which, path: steer.Path, length: number, cost: number)
---@overload fun(self: steer.Agent, which: steer.Which, ...: steer.Agent|steer.Point|steer.SharedPoint|number)
function Agent:set_target(which, target, y) end

---Reweights the program entry `which` selects.
---@param which steer.Which
---@param weight number
function Agent:set_weight(which, weight) end

---The force of the agent's program now, without applying it. Bookkeeping
---(wander, path progress) advances as in a step; dt (default 0) only counts
---down priority's hold.
---@param dt? number >= 0
---@return number fx
---@return number fy
function Agent:steering(dt) end

---The entry that won the last priority or dither combination: its 1-based
---index and its tag (or behavior name); nil when none did.
---@return integer? index
---@return string? name
function Agent:active_behavior() end

---The agent's program as a table like the one set_behaviors takes, every
---parameter spelled out; nil without a program.
---@return steer.ProgramDef?
function Agent:behaviors() end

-- ---- steer.Path ----------------------------------------------------------------

---An immutable polyline. `#path` is its number of points.
---@class steer.Path
---@operator len: integer
local Path = {}

---Point i (1-based).
---@param i integer
---@return number x
---@return number y
function Path:point(i) end

---Whether the path loops back to its first point.
---@return boolean
function Path:loops() end

-- ---- navigation: steer.NavGrid, steer.FlowField ---------------------------------

---Options of `steer.navgrid`.
---@class steer.NavGridDef
---@field width integer cells per row, 1..65536
---@field height integer cells per column, 1..65536 (width * height <= 2^26)
---@field cell_size? number side of a cell in world units (default 1, > 0)
---@field origin? number[] `{x, y}`: the world point of cell (0, 0)'s corner (default {0, 0})
---@field cost? number[] row-major, cell (cx, cy) at `cy * width + cx + 1`: 0 blocked, else in [1, 1e9], the cost of entering (default all 1)
---@field solid? (number|boolean)[] instead of `cost`: a tile map in `walls_from_tiles`' convention (the opposite of cost's), non-zero or true blocks, 0/false/nil costs 1; a table given to `walls_from_tiles` is refused as `cost`

---A navigation grid of width x height cells; cell (cx, cy), both from 0, covers
---[ox + cx s, ox + (cx + 1) s) x [oy + cy s, oy + (cy + 1) s).
---@param def steer.NavGridDef
---@return steer.NavGrid
function steer.navgrid(def) end

---A grid from a Moving AI benchmark map (`type octile`, `height`, `width`, `map`,
---then rows; `.`, `G`, `S` passable, `@`, `O`, `T`, `W` blocked).
---@param text string the map file's text
---@param cell_size? number default 1
---@return steer.NavGrid
function steer.navgrid_from_map(text, cell_size) end

---Options of `nav:path`.
---@class steer.PathOptions
---@field smooth? boolean string-pull the path through line of sight (default false)
---@field diagonal? boolean octile moves (default true); false: 4-neighbor moves
---@field clearance? number world units >= 0 (default 0): smoothed sight lines and the segments to the exact endpoints keep this far from blocked cells and the grid's edge

---@class steer.NavGrid
local NavGrid = {}

---Sets a cell's cost (0 blocked, else in [1, 1e9]); flow fields built before become stale.
---@param cx integer
---@param cy integer
---@param c number
---@return steer.NavGrid self
function NavGrid:set_cost(cx, cy, c) end

---A cell's cost.
---@param cx integer
---@param cy integer
---@return number
function NavGrid:cost(cx, cy) end

---The cell holding a world point, or nil outside the grid. The grid is closed:
---its far edges (x = origin + width * cell_size, the same for y) are in the
---last column and row, where a world of the grid's size holds agents. The point takes
---every form (x, y numbers, an agent of any world, a steer.point, `{x, y}`,
---`{x = x, y = y}`), as in every navigation call.
---@param x number|steer.Agent|steer.SharedPoint|steer.Point
---@param y? number
---@return integer? cx
---@return integer? cy
---@overload fun(self: steer.NavGrid, p: steer.Agent|steer.SharedPoint|steer.Point): integer?, integer?
function NavGrid:cell_of(x, y) end

---The world point at a cell's centre.
---@param cx integer
---@param cy integer
---@return number x
---@return number y
function NavGrid:center_of(cx, cy) end

---The cheapest path between the cells of two world points (A*, octile moves, no
---corner cutting), or nil and a reason ("start outside the grid", "goal outside
---the grid", "start cell is blocked", "goal cell is blocked", "no path").
---Each point is x, y numbers or one value: an agent (of any world), a
---steer.point, `{x, y}` or `{x = x, y = y}`; the options follow the points.
---@param from steer.Agent|steer.SharedPoint|steer.Point
---@param to steer.Agent|steer.SharedPoint|steer.Point
---@param options? steer.PathOptions
---@return steer.Path|nil path from `from` itself through cell centres of the turning points to `to` itself (a centre stays where the endpoint cannot see past it)
---@return number|string length of the returned path in world units, or the reason
---@return number? cost the grid path's cost, centre to centre (equals the length without cell costs, endpoints at centres)
---@overload fun(self: steer.NavGrid, x1: number, y1: number, x2: number, y2: number, options?: steer.PathOptions): steer.Path|nil, number|string, number?
---@overload fun(self: steer.NavGrid, from: steer.Agent|steer.SharedPoint|steer.Point, x2: number, y2: number, options?: steer.PathOptions): steer.Path|nil, number|string, number?
---@overload fun(self: steer.NavGrid, x1: number, y1: number, to: steer.Agent|steer.SharedPoint|steer.Point, options?: steer.PathOptions): steer.Path|nil, number|string, number?
function NavGrid:path(from, to, options) end

---A flow field toward one goal point (any form: x, y, an agent, a steer.point,
---`{x, y}`, `{x = x, y = y}`), or toward the nearest of several: a list of
---one-value points (`{ {x, y}, agent, ... }`).
---@param x number|steer.Agent|steer.SharedPoint|steer.Point|(steer.Agent|steer.SharedPoint|steer.Point)[]
---@param y? number
---@return steer.FlowField
function NavGrid:flow(x, y) end

---Options of NavGrid:inflated.
---@class steer.InflateOptions
---@field edges? boolean the grid's outside edge counts as blocked (default true)

---A new grid for a unit of the given radius (world units, >= 0): every cell
---whose centre lies closer than radius to a blocked cell's square (and, with
---`edges`, to the grid's outside edge) is blocked; the others keep their
---costs. Same size, cell size and origin; this grid is unchanged; radius 0
---gives a copy. O(cells) whatever the radius.
---@param radius number
---@param options? steer.InflateOptions
---@return steer.NavGrid
function NavGrid:inflated(radius, options) end

---Width and height in cells.
---@return integer width
---@return integer height
function NavGrid:size() end

---Side of a cell in world units.
---@return number
function NavGrid:cell_size() end

---The world point of cell (0, 0)'s corner.
---@return number x
---@return number y
function NavGrid:origin() end

---Bytes the grid holds in C.
---@return integer
function NavGrid:memory() end

---The cost from every cell to its nearest goal and a direction per cell.
---@class steer.FlowField
local FlowField = {}

---The cost from the cell of (x, y) to the nearest goal, in world units; nil
---outside the grid, on a blocked cell, or where no goal can be reached.
---The point takes every form, as in `nav:cell_of`.
---@param x number|steer.Agent|steer.SharedPoint|steer.Point
---@param y? number
---@return number?
function FlowField:distance(x, y) end

---The unit direction to move at (x, y) (bilinear between cell centres); zero in a goal cell.
---The point takes every form, as in `nav:cell_of`.
---@param x number|steer.Agent|steer.SharedPoint|steer.Point
---@param y? number
---@return number dx
---@return number dy
function FlowField:direction(x, y) end

---Whether a cost of the grid changed since the field was computed.
---@return boolean
function FlowField:stale() end

---Recomputes the field from the grid's costs now.
---@return steer.FlowField self
function FlowField:update() end

---Moves the field's goals and recomputes it in place (as `f:update()`): the goals
---in every form `nav:flow` takes, one point (x, y, an agent, a steer.point,
---`{x, y}`, `{x = x, y = y}`) or a list of one-value points. Agents following
---the field follow the new goals at once; their programs are untouched. A bad
---goal raises and leaves the field as it was.
---@param x number|steer.Agent|steer.SharedPoint|steer.Point|(steer.Agent|steer.SharedPoint|steer.Point)[]
---@param y? number
---@return steer.FlowField self
function FlowField:set_goals(x, y) end

---The field's grid: the same handle the grid was made as (`f:grid() == nav`).
---@return steer.NavGrid
function FlowField:grid() end

---Force along a flow field: full speed along its direction, slowing inside
---slowing_radius of the goal, arriving at the goal point in its cell; on a
---blocked or unreachable cell, toward the nearest reachable cell.
---@param field steer.FlowField
---@param slowing_radius? number default 2
---@return number fx
---@return number fy
function Agent:flow(field, slowing_radius) end

-- ---- group and tactical behaviors (docs/API.md section 17) -------------------

---Hold the point `offset` (x ahead, y to the left) of the leader's frame,
---matching the leader's velocity: `a:offset_pursuit(leader, ox, oy)` or
---`a:offset_pursuit(leader, {ox, oy})`; the leader may be a point. The
---slot is fitted to the level (out of rocks, back from walls) unless `fit`
---is false; with the table form, `fit` follows `slowing_radius` there.
---@param leader steer.Agent|steer.Point|steer.SharedPoint|number
---@param ox number|steer.Point
---@param oy? number
---@param slowing_radius? number default 2
---@param fit? boolean default true
---@return number fx
---@return number fy
---@overload fun(self: steer.Agent, leader: steer.Agent|steer.Point|steer.SharedPoint, offset: steer.Point, slowing_radius?: number, fit?: boolean): number, number
---@overload fun(self: steer.Agent, lx: number, ly: number, ox: number, oy: number, slowing_radius?: number, fit?: boolean): number, number
function Agent:offset_pursuit(leader, ox, oy, slowing_radius, fit) end

---Arrive `distance` behind the leader (default 2), stepping aside when in
---front of it, with separation over `radius` (default 2; 0: none). The spot
---behind is fitted to the level (out of rocks, back from walls) unless `fit`
---is false.
---@param leader steer.Agent|steer.Point|steer.SharedPoint
---@param distance? number
---@param radius? number
---@param slowing_radius? number default 2
---@param fit? boolean default true
---@return number fx
---@return number fy
---@overload fun(self: steer.Agent, lx: number, ly: number, distance?: number, radius?: number, slowing_radius?: number, fit?: boolean): number, number
function Agent:follow_leader(leader, distance, radius, slowing_radius, fit) end

---Get between a and b: arrive at the midpoint of their predicted positions.
---@param a steer.Agent|steer.Point|steer.SharedPoint
---@param b steer.Agent|steer.Point|steer.SharedPoint
---@param slowing_radius? number default 2
---@return number fx
---@return number fy
---@overload fun(self: steer.Agent, ax: number, ay: number, bx: number, by: number, slowing_radius?: number): number, number
---@overload fun(self: steer.Agent, ax: number, ay: number, b: steer.Agent|steer.Point|steer.SharedPoint, slowing_radius?: number): number, number
---@overload fun(self: steer.Agent, a: steer.Agent|steer.Point|steer.SharedPoint, bx: number, by: number, slowing_radius?: number): number, number
function Agent:interpose(a, b, slowing_radius) end

---Hide from the hunter behind the nearest obstacle (`distance` behind its
---boundary, default 1); evade it when there is no obstacle.
---@param hunter steer.Agent|steer.Point|steer.SharedPoint
---@param distance? number
---@param slowing_radius? number default 2
---@return number fx
---@return number fy
---@overload fun(self: steer.Agent, hx: number, hy: number, distance?: number, slowing_radius?: number): number, number
function Agent:hide(hunter, distance, slowing_radius) end

---Brake behind the nearest agent within `distance` (default 3) and a view
---cone of `fov` degrees (default 90) when it is slower or too close.
---@param distance? number
---@param fov? number
---@param slowing_radius? number default 2
---@return number fx
---@return number fy
function Agent:queue(distance, fov, slowing_radius) end

---Steer to the agent's slot in formation f (zero when it is no member:
---agents join through `{ "formation", formation = f }` entries).
---@param f steer.Formation
---@param slowing_radius? number default 2
---@return number fx
---@return number fy
function Agent:formation(f, slowing_radius) end

---Options of `steer.formation`: an anchor and either slots or a shape.
---@class steer.FormationDef
---@field anchor steer.Agent|steer.Point|steer.SharedPoint the frame's origin; an agent's frame turns with its facing angle (`angle`), a point's faces angle 0
---@field slots? steer.Point[] slots `{x, y}`: x ahead of the anchor, y to its left
---@field shape? "line"|"column"|"wedge"|"circle" instead of slots
---@field spacing? number between neighboring slots of a shape (default 2; not with slots)
---@field count? integer slots of a shape: required with `shape` (not with slots)
---@field world? steer.World required when the anchor is a point
---@field fit? boolean slots moved onto free ground (default true): out of the obstacles they lie in, then back to the anchor's side of the first wall between (docs/API.md 17.3)

---A formation: members (agents whose programs have a `formation` entry)
---assigned to slots minimizing the total
---distance. `#f` is its number of slots.
---@class steer.Formation
---@operator len: integer
local Formation = {}

---A new formation.
---@param def steer.FormationDef
---@return steer.Formation
function steer.formation(def) end

---The 1-based slot of agent a; nil when it is no member or has no slot.
---@param a steer.Agent
---@return integer?
function Formation:slot_of(a) end

---The members in the order they joined.
---@return steer.Agent[]
function Formation:members() end

---Assigns every member a slot again from the positions now.
---@return integer placed how many members have a slot
function Formation:reassign() end

---Slot k (1-based) in the world now, fitted to the level when the formation
---fits (for the radius of the member holding it); nil while the anchor agent
---is removed.
---@param k integer
---@return number? x
---@return number? y
function Formation:slot_position(k) end

---Fit the slots to the level (true) or take them as given (false).
---@param on boolean
function Formation:set_fit(on) end

---Whether the slots are fitted to the level.
---@return boolean
function Formation:fits() end

---Moves the formation onto a new anchor: an agent of the members' world that
---is no member, a steer.SharedPoint, {x, y}, {x =, y =} or x, y. Members keep
---their slots (f:reassign() reassigns them).
---@param anchor steer.Agent|steer.SharedPoint|number[]|{x: number, y: number}|number
---@param y? number when anchor is x
function Formation:set_anchor(anchor, y) end

---The anchor agent (a removed one too), or x, y of the anchor point (a
---shared point's position now).
---@return steer.Agent|number
---@return number? y
function Formation:anchor() end

---Slot k (1-based) in the anchor's frame, as given.
---@param k integer
---@return number x
---@return number y
function Formation:slot(k) end

return steer
