-- Fallback: links this app version has no route for (push links for newer versions)
-- go to the upgrade page, which carries the original link.
fallback(function(req, ctx)
  if req.scheme == "myapp" then
    return redirect("myapp://upgrade?from=" .. url.encode(req.url))
  end
end)
