-- wrk script for scripts/bench-http.sh: spreads requests over the cart IDs in the file
-- CART_IDS names (one a line). WRK_METHOD=POST adds one apple to each cart in turn instead of
-- reading it.
local ids = {}
local next_index = 1
local method = os.getenv("WRK_METHOD") or "GET"

function init(args)
    for line in io.lines(os.getenv("CART_IDS")) do
        if #line > 0 then ids[#ids + 1] = line end
    end
    -- Threads start at different carts, so they do not all write the same one.
    next_index = (math.random(#ids) - 1) % #ids + 1
end

function request()
    local id = ids[next_index]
    next_index = next_index % #ids + 1
    if method == "POST" then
        return wrk.format("POST", "/v1/carts/" .. id .. "/items", { ["Content-Type"] = "application/json" },
            '{"sku":"apple","quantity":1}')
    end
    return wrk.format("GET", "/v1/carts/" .. id)
end

function response(status, headers, body)
    if status ~= 200 then
        io.stderr:write("unexpected status " .. status .. ": " .. body .. "\n")
        wrk.thread:stop()
    end
end
