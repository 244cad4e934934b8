import pkg.sub

pkg.helper()
pkg.sub.tool()
