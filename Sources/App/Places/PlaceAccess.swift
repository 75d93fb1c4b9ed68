import Fluent
import Vapor

/// Who may do what with a place: anyone looks it up; its managers and the server's admins change
/// it, set its reward and redeem its codes; admins and managers of any place add new ones. A person
/// named a manager is asked first, and has no rights until they accept.
struct PlaceAccess {
    let place: Place
    let canManage: Bool

    /// The place with this id, with what the viewer may do; 404 for an unknown id.
    static func load(_ req: Request, id raw: String?) async throws -> PlaceAccess {
        guard let raw, let id = UUID(uuidString: raw), let place = try await Place.find(id, on: req.db) else { throw Abort(.notFound) }
        return PlaceAccess(place: place, canManage: try await manages(id, viewer: req.currentUser, on: req.db))
    }

    /// As `load`, for pages only managers see; others get a 404, so a place's counter stays unknown.
    static func manager(_ req: Request, id raw: String?) async throws -> PlaceAccess {
        _ = try req.requireUser()
        let access = try await load(req, id: raw)
        guard access.canManage else { throw Abort(.notFound) }
        return access
    }

    static func manages(_ placeID: UUID, viewer: User?, on db: any Database) async throws -> Bool {
        guard let viewer, let viewerID = viewer.id else { return false }
        if viewer.role == .admin { return true }
        return try await PlaceManager.query(on: db).filter(\.$place.$id == placeID).filter(\.$user.$id == viewerID).filter(\.$accepted == true)
            .first() != nil
    }

    static func canAdd(_ viewer: User?, on db: any Database) async throws -> Bool {
        guard let viewer, let viewerID = viewer.id else { return false }
        if viewer.role == .admin { return true }
        return try await PlaceManager.query(on: db).filter(\.$user.$id == viewerID).filter(\.$accepted == true).first() != nil
    }
}
