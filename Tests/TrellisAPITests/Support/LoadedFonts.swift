import TrellisAPI
import TrellisText

/// The default faces (from the Debian packages' file lists), loaded once for the tests that measure text.
enum LoadedFonts {
    static let collection = FontCollection(faces: FontFiles.load(FontFiles.defaultFiles()).faces)

    /// A service whose fonts are loaded.
    static func service() -> TrellisService {
        TrellisService(configuration: ServiceConfiguration(context: FeatureContext(fonts: collection)))
    }
}
