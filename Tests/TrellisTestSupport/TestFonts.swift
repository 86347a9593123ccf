import TrellisAPI
import TrellisText

/// The default faces (the Debian packages' files), loaded once for every test that measures text.
public enum TestFonts {
    public static let collection = FontCollection(faces: FontFiles.load(FontFiles.defaultFiles()).faces)

    /// The service's configuration with these fonts.
    public static var configuration: ServiceConfiguration { ServiceConfiguration(context: FeatureContext(fonts: collection)) }

    /// A service whose fonts are loaded.
    public static func service() -> TrellisService {
        TrellisService(configuration: configuration)
    }

    /// A resolved font for a CSS family list, or nil when the list or a family is unknown.
    public static func font(_ family: String, size: Double, weight: Int = 400, style: FontStyle = .normal) -> TextFont? {
        guard case .success(let entries) = FontFamilyList.parse(family),
            case .success(let faces) = collection.resolve(entries, weight: weight, style: style)
        else { return nil }
        return TextFont(faces: faces, size: size)?.withStandard(collection.standardFace(weight: weight, style: style))
    }
}
