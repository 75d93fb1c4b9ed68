import Fluent
import Vapor

/// `/photos/{id}`: the metadata-free copy of a challenge or reply photo, for exactly the people who
/// may see that challenge or reply. Everyone else gets 404, signed in or not.
struct PhotoController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get("photos", ":id", use: serve)
    }

    func serve(req: Request) async throws -> Response {
        guard let viewer = req.currentUser, let id = req.parameters.get("id", as: UUID.self),
              let photo = try await Photo.find(id, on: req.db), try await Self.mayView(photo, viewer: viewer, on: req.db)
        else { throw Abort(.notFound) }
        let response = try await req.fileio.asyncStreamFile(
            at: PhotoStore.servedPath(photo.servedFile, config: req.application.config), mediaType: nil)
        response.headers.replaceOrAdd(name: .contentType, value: photo.imageFormat.mimeType)
        // Private: a shared cache must never hand a photo to someone else. The bytes behind an id
        // never change, so the browser may keep them.
        response.headers.replaceOrAdd(name: .cacheControl, value: "private, max-age=86400")
        response.headers.replaceOrAdd(name: .contentDisposition, value: "inline")
        return response
    }

    static func mayView(_ photo: Photo, viewer: User, on db: any Database) async throws -> Bool {
        let id = try photo.requireID()
        if let challenge = try await Challenge.query(on: db).filter(\.$photo.$id == id).first() {
            return try await ChallengeAccess.load(challenge, viewer: viewer, on: db).canView
        }
        if let response = try await ChallengeResponse.query(on: db).filter(\.$photo.$id == id).first(),
           let challenge = try await Challenge.find(response.$challenge.id, on: db) {
            let access = try await ChallengeAccess.load(challenge, viewer: viewer, on: db)
            return access.canView && access.canSee(response)
        }
        return false
    }
}
