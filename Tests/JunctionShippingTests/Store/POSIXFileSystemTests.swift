import Foundation
import Junction
import JunctionShipping
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
            throws: StoreError(
                .corrupt, path: directory,
                "open \(directory): a directory, where the store keeps a regular file it wrote; it is not read")
        ) { try fileSystem.read(directory, maximumBytes: 10) }
    }

    /// Regression (issue 27, item 7): a FIFO held a blocking `open(2)` forever. Each kind is
    /// refused within a second, unread.
    @Test(arguments: SpecialFile.allCases)
    func whatIsNoRegularFileIsRefusedWithoutBlocking(_ special: SpecialFile) throws {
        let directory = try StoreFixture.directory()
        defer { StoreFixture.remove(directory) }
        _ = try fileSystem.makeDirectory(directory)
        let path = directory + "/f"
        try fileSystem.createFile(path, contents: [1, 2, 3])
        guard try special.make(at: path, outside: (directory as NSString).deletingLastPathComponent + "/outside")
        else { return }
        let fileSystem = fileSystem
        let outcome = try #require(
            try SpecialFile.within(30) {
                Result { () throws(StoreError) in try fileSystem.read(path, maximumBytes: 10) }
            })
        #expect(
            throws: StoreError(
                .corrupt, path: path,
                "open \(path): \(special.kind), where the store keeps a regular file it wrote; it is not read")
        ) { try outcome.get() }
    }

    /// Writing under a name something else took removes it, never opens it: neither a FIFO
    /// holds the write nor a link leads it out of the folder.
    @Test(arguments: SpecialFile.allCases)
    func creatingAFileReplacesWhateverHasTheName(_ special: SpecialFile) throws {
        let directory = try StoreFixture.directory()
        defer { StoreFixture.remove(directory) }
        _ = try fileSystem.makeDirectory(directory)
        let path = directory + "/f.tmp"
        let outside = (directory as NSString).deletingLastPathComponent + "/outside"
        guard special != .directory, try special.make(at: path, outside: outside) else { return }
        let outsideBytes = FileManager.default.contents(atPath: outside)
        let fileSystem = fileSystem
        let created = try SpecialFile.within(30) {
            try fileSystem.createFile(path, contents: [4, 5])
            return true
        }
        #expect(created == true)
        #expect(try fileSystem.read(path, maximumBytes: 10) == [4, 5])
        #expect(FileManager.default.contents(atPath: outside) == outsideBytes)
    }
}
