-- Flow fields against a plain reference and brute force, bit for bit
-- (issue 16, point 5: the fast computation must not change any result).

describe("flow fields (C oracle)", function()
  it("equal the reference computation bit for bit: costs, directions, blend masks", function()
    -- spec/c/flowfield_oracle.c: random grids with blocked cells, costs above 1
    -- (whole, fractional, far apart), several goals, thin, 1x1 and all-blocked
    -- grids, updates, a failed update, and the Moving AI maps of ../shared/nav
    -- (built and run without the ASan runtime that `make asan` preloads into busted)
    local ok = os.execute("env -u LD_PRELOAD make -s build/spec/flowfield_oracle >/dev/null")
    assert.is_true(ok == true or ok == 0, "building the oracle failed")
    local p = assert(io.popen("env -u LD_PRELOAD build/spec/flowfield_oracle 2>&1"))
    local out = p:read("*a")
    p:close()
    local good, bad = out:match("(%d+) passed, (%d+) failed")
    assert.is_truthy(good, out)
    assert.are.equal("0", bad, out)
    assert.is_true(tonumber(good) > 10000, out)
  end)
end)
