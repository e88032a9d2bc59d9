-- Flow fields against a plain reference and brute force, bit for bit
-- (issue 16, point 5: the fast computation must not change any result).

describe("flow fields (C oracle)", function()
  it("equal the reference computation bit for bit: costs, directions, blend masks", function()
    -- spec/c/flowfield_oracle.c: random grids with blocked cells, costs above 1
    -- (whole, fractional, far apart), several goals, thin, 1x1 and all-blocked
    -- grids, updates, a failed update, and the Moving AI maps of ../shared/nav
    -- (built and run without the ASan runtime that `make asan` preloads into busted)
    require("support").run_oracle("flowfield_oracle", 10000)
  end)
end)
