import FieldhouseKit
import Foundation

/// A place as a page shows it: exactly, with a map pin, to those allowed to know it; otherwise only
/// its area (0.1°, about 10 km), enough to tell whether it is in your part of the country.
struct PlaceView {
    let text: String?
    let mapURL: String?
    /// The point itself, for a map; nil where only the area may be shown (no map then: a pin on
    /// the area would look like the place).
    let exactCoordinate: Coordinate?

    static func area(of coordinate: Coordinate) -> Coordinate {
        Coordinate(latitude: (coordinate.latitude * 10).rounded() / 10, longitude: (coordinate.longitude * 10).rounded() / 10)
    }

    /// `hiddenNote` says who gets to see the exact place, e.g. "shown to members".
    init(name: String?, coordinate: Coordinate?, exact: Bool, hiddenNote: String) {
        guard let coordinate else {
            text = exact ? name : nil
            mapURL = nil
            exactCoordinate = nil
            return
        }
        if exact {
            exactCoordinate = coordinate
            text = name ?? Format.coordinates(latitude: coordinate.latitude, longitude: coordinate.longitude)
            let lat = Format.coordinate(coordinate.latitude, decimals: 5), lon = Format.coordinate(coordinate.longitude, decimals: 5)
            mapURL = "https://www.openstreetmap.org/?mlat=\(lat)&mlon=\(lon)#map=16/\(lat)/\(lon)"
        } else {
            exactCoordinate = nil
            let area = Self.area(of: coordinate)
            let lat = Format.coordinate(area.latitude, decimals: 1), lon = Format.coordinate(area.longitude, decimals: 1)
            text = t("Around {latitude}, {longitude} ({note})", lat, lon, hiddenNote)
            mapURL = "https://www.openstreetmap.org/#map=11/\(lat)/\(lon)"
        }
    }

    /// A map of the exact place with its pin (SVG, zoomable where tiles are set up); empty when the
    /// viewer may see only its area.
    func map(tiles: MapTiles?) -> String {
        guard let exactCoordinate, let text else { return "" }
        return SVGMap(
            markers: [.init(coordinate: exactCoordinate, symbol: "★", title: text, primary: true)], tiles: tiles, label: t("Map of where {place} is", text)
        ).svg
    }
}
