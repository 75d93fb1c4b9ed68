import FieldhouseKit
import Foundation

/// A place as a page shows it: exactly, with a map pin, to those allowed to know it; otherwise only
/// its area (0.1°, about 10 km), enough to tell whether it is in your part of the country.
struct PlaceView {
    let text: String?
    let mapURL: String?

    static func area(of coordinate: Coordinate) -> Coordinate {
        Coordinate(latitude: (coordinate.latitude * 10).rounded() / 10, longitude: (coordinate.longitude * 10).rounded() / 10)
    }

    /// `hiddenNote` says who gets to see the exact place, e.g. "shown to members".
    init(name: String?, coordinate: Coordinate?, exact: Bool, hiddenNote: String) {
        guard let coordinate else {
            text = exact ? name : nil
            mapURL = nil
            return
        }
        if exact {
            text = name ?? String(format: "%.4f, %.4f", coordinate.latitude, coordinate.longitude)
            mapURL = String(
                format: "https://www.openstreetmap.org/?mlat=%.5f&mlon=%.5f#map=16/%.5f/%.5f",
                coordinate.latitude, coordinate.longitude, coordinate.latitude, coordinate.longitude)
        } else {
            let area = Self.area(of: coordinate)
            text = t(
                "Around {latitude}, {longitude} ({note})", String(format: "%.1f", area.latitude), String(format: "%.1f", area.longitude),
                hiddenNote)
            mapURL = String(format: "https://www.openstreetmap.org/#map=11/%.1f/%.1f", area.latitude, area.longitude)
        }
    }
}
