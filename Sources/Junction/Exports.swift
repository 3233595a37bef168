@_exported public import JunctionCore
