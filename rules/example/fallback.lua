-- Fallback: links this app version has no route for (push links for newer versions)
-- go to the upgrade page, which carries the original link. A link under a section this
-- version has (myapp://moments/abc: a moment id is a number) is malformed, not new: updating
-- would not help, so it is refused.
local sections = { user = true, moments = true, order = true, orders = true, live = true, video = true }

fallback(function(req, ctx)
  if req.scheme ~= "myapp" then return nil end
  if sections[req.host] then return reject("this link is malformed: " .. req.url, 404) end
  return redirect("myapp://upgrade?from=" .. url.encode(req.url))
end)
