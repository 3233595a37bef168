import Foundation
import Junction
import Testing

/// The real file system seam: bounds checked before reading, errors with the call, the
/// path and errno's text.
@Suite struct POSIXFileSystemTests {
    private let fileSystem = POSIXFileSystem()

    @Test func writesReadsRenamesListsAndRemoves() throws {
        let directory = try StoreFixture.directory()
        #expect(try fileSystem.makeDirectory(directory))
        #expect(try !fileSystem.makeDirectory(directory))
        try fileSystem.createFile(directory + "/a.tmp", contents: [1, 2, 3])
        try fileSystem.rename(directory + "/a.tmp", to: directory + "/a")
        try fileSystem.synchronizeDirectory(directory)
        #expect(try fileSystem.read(directory + "/a", maximumBytes: 3) == [1, 2, 3])
        #expect(try fileSystem.list(directory, maximumEntries: 1) == ["a"])
        let mode = try FileManager.default.attributesOfItem(atPath: directory + "/a")[.posixPermissions] as? Int
        #expect(mode == 0o600)
        try fileSystem.remove(directory + "/a")
        #expect(try fileSystem.list(directory, maximumEntries: 1) == [])
    }

    @Test func aFileOneByteOverTheBoundIsRefusedUnread() throws {
        let directory = try StoreFixture.directory()
        _ = try fileSystem.makeDirectory(directory)
        try fileSystem.createFile(directory + "/f", contents: [UInt8](repeating: 7, count: 11))
        #expect(try fileSystem.read(directory + "/f", maximumBytes: 11).count == 11)
        #expect(
            throws: StoreError(
                .oversize, path: directory + "/f",
                "read \(directory)/f: 11 bytes, more than the 10 the store reads; the file is not one the store wrote")
        ) { try fileSystem.read(directory + "/f", maximumBytes: 10) }
    }

    @Test func aDirectoryWithMoreEntriesThanTheBoundIsRefused() throws {
        let directory = try StoreFixture.directory()
        _ = try fileSystem.makeDirectory(directory)
        for name in ["a", "b", "c"] { try fileSystem.createFile(directory + "/" + name, contents: []) }
        #expect(
            throws: StoreError(
                .oversize, path: directory,
                "list \(directory): more than 2 entries; remove what the store did not put there")
        ) { try fileSystem.list(directory, maximumEntries: 2) }
    }

    @Test func missingFilesAreNotFoundWithTheSystemsText() throws {
        let directory = try StoreFixture.directory()
        #expect(
            throws: StoreError(
                .notFound, path: directory + "/x", "open \(directory)/x: No such file or directory (errno 2)")
        ) { try fileSystem.read(directory + "/x", maximumBytes: 10) }
        #expect(
            throws: StoreError(
                .notFound, path: directory + "/x",
                "rename \(directory)/x to \(directory)/y: No such file or directory (errno 2); the store's directory must be writable and its file system have space"
            )
        ) { try fileSystem.rename(directory + "/x", to: directory + "/y") }
    }

    @Test func aDirectoryIsNotReadAsAFile() throws {
        let directory = try StoreFixture.directory()
        _ = try fileSystem.makeDirectory(directory)
        #expect(
            throws: StoreError(.io, path: directory, "read \(directory): not a regular file; remove whatever is there")
        ) { try fileSystem.read(directory, maximumBytes: 10) }
    }
}
