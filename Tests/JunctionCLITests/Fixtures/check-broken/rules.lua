redirect { from = "myapp://a", to = 
