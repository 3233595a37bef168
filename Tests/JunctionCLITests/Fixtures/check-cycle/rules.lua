redirect { from = "myapp://a", to = "myapp://b" }
redirect { from = "myapp://b/**", to = "myapp://a" }
