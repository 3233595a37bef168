import Foundation

exit(BenchmarkCommand.run(arguments: Array(CommandLine.arguments.dropFirst())))
