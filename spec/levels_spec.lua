-- Game levels: static geometry in spatial indexes, handles, polygons, tile
-- maps, ray casts, line of sight, query_box and containment (issue 12).

describe("geometry index (C oracle)", function()
  it("gives the brute force scan's answers bit for bit", function()
    -- spec/c/geometry_oracle.c: random levels, torus seams, degenerate and
    -- huge items, edits, ray casts, tile maps, allocation failures
    local ok = os.execute("make -s build/spec/geometry_oracle >/dev/null")
    assert.is_true(ok == true or ok == 0, "building the oracle failed")
    local p = assert(io.popen("build/spec/geometry_oracle 2>&1"))
    local out = p:read("*a")
    p:close()
    local good, bad = out:match("(%d+) passed, (%d+) failed")
    assert.is_truthy(good, out)
    assert.are.equal("0", bad, out)
    assert.is_true(tonumber(good) > 50000, out)
  end)
end)
