-- Contestant (a2): steer world:step on steer.world{ threads = 2 }.
return require("contestants.steer_world").with_threads(2)
