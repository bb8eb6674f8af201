import ArgumentParser
import Foundation
import StageMixCommandLine
import StageMixImport
import StageMixMedia
import StageMixOptions

extension ImportTarget {
    /// Runs a platform's importer on DIR (``PlatformImporter``): the folder is scanned and its JSON
    /// read strictly first (a malformed document exits 65 before anything is written), then the
    /// capture is staged, with the media the importer writes, and published whole.
    func run(_ importer: some PlatformImporter, directory: String) throws {
        try runReportingErrors {
            MediaLog.setLevel(.quiet)
            try ImportSource(directory: directory, out: out).withFolder { local in
                let folder: PlatformFolder
                do { folder = try PlatformFolder(scanning: local) } catch { throw BadInput(error) }
                try write(making: { staging in try importer.read(folder, staging: staging) })
            }
        }
    }
}
