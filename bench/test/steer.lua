-- `require "steer"` resolves here only when bench/test/?.lua leads LUA_PATH
-- (the slot self-test of `make bench-smoke`): the stand-in, not steer.
return require "test.fake_steer"
