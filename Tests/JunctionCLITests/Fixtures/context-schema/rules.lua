-- Answers with what the rule sees of ctx and req.source, each value with its Lua type.
local function seen(value)
  if value == nil then return "nil" end
  return tostring(value) .. " (" .. (math.type(value) or type(value)) .. ")"
end

interceptor { name = "show", route = "show",
  run = function(req, ctx)
    local roles = {}
    for _, role in ipairs(ctx.roles or {}) do roles[#roles + 1] = seen(role) end
    return respond({
      app_version = seen(ctx.app_version), hour = seen(ctx.hour), device_id = seen(ctx.device_id),
      user_id = seen(ctx.user and ctx.user.id), roles = table.concat(roles, ", "), source = req.source,
    })
  end }
