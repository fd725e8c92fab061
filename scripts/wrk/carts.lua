-- wrk script for scripts/bench-http.sh: spreads requests over the cart IDs in the file
-- CART_IDS names (one a line). WRK_METHOD=POST adds one apple to each cart in turn instead of
-- reading it.
--
-- wrk shares the machine's cores with the server it measures, so the script does as little as
-- it can a request: each cart's request is built once, in init, and there is no response
-- callback (which would make wrk collect every response's headers and body for Lua).
-- bench-http.sh refuses a run in which wrk counted a response that is not 2xx or 3xx.
local requests = {}
local next_index = 1
local method = os.getenv("WRK_METHOD") or "GET"

function init(args)
    for id in io.lines(os.getenv("CART_IDS")) do
        if #id > 0 then
            if method == "POST" then
                requests[#requests + 1] = wrk.format("POST", "/v1/carts/" .. id .. "/items",
                    { ["Content-Type"] = "application/json" }, '{"sku":"apple","quantity":1}')
            else
                requests[#requests + 1] = wrk.format("GET", "/v1/carts/" .. id)
            end
        end
    end
    -- Threads start at different carts, so they do not all write the same one.
    next_index = math.random(#requests)
end

function request()
    local request = requests[next_index]
    next_index = next_index % #requests + 1
    return request
end
