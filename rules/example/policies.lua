-- Group policies: every route of a group in routes.yaml runs its group's policy.

-- Pages for signed-in users: guests log in first, then the original request resumes.
group("login", function(req, ctx)
  if ctx.user == nil then
    return gate("myapp://login", { resume = true })
  end
end)

-- Anti-addiction: minors may not watch live rooms or record videos from 22:00 to 08:00.
-- A context without the hour refuses minors rather than guess.
group("anti_addiction", function(req, ctx)
  local user = ctx.user
  if user == nil or user.age == nil or user.age >= 18 then
    return nil
  end
  local hour = ctx.hour
  if hour == nil then
    return reject("minors are refused when the app does not say the hour", 451)
  end
  if hour >= 22 or hour < 8 then
    return reject("minors cannot use this between 22:00 and 08:00", 451)
  end
end)
