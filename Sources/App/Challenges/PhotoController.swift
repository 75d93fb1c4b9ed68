import Fluent
import Vapor

/// `/photos/{id}` and `/photos/{id}/{large|small}`: the metadata-free copies of a challenge or reply
/// photo, for exactly the people who may see that challenge or reply, and of photos a feature shows
/// everyone (`Feature.photoIsPublic`: a place's). Everyone else gets 404, signed in or not.
struct PhotoController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get(ChallengePath.photo) { try await serve(req: $0, size: nil) }
        routes.get(ChallengePath.heldPhoto, use: held).holdsSecret()
        routes.get(ChallengePath.photoSize) { req in
            guard let size = req.parameters.get("size").flatMap(Photo.Size.init(rawValue:)) else { throw Abort(.notFound) }
            return try await serve(req: req, size: size)
        }
    }

    func serve(req: Request, size: Photo.Size?) async throws -> Response {
        guard let id = req.parameters.get("id", as: UUID.self), let photo = try await Photo.find(id, on: req.db) else { throw Abort(.notFound) }
        var allowed = false
        for owner in req.application.features.compactMap({ $0 as? any PublicPhotos.Type }) where try await owner.photoIsPublic(id, on: req.db) {
            allowed = true
            break
        }
        if !allowed, let viewer = req.currentUser { allowed = try await Self.mayView(photo, viewer: viewer, on: req.db) }
        guard allowed else { throw Abort(.notFound) }
        let config = req.application.config
        // Until the sizes exist, every size is the full metadata-free copy.
        let path =
            photo.sizes == .ready && size != nil
            ? PhotoStore.sizePath(photo.servedFile, size!, config: config)
            : PhotoStore.servedPath(photo.servedFile, config: config)
        let response = try await req.fileio.asyncStreamFile(at: path, mediaType: nil)
        response.headers.replaceOrAdd(name: .contentType, value: photo.imageFormat.mimeType)
        // Private: a shared cache must never hand a photo to someone else. And the browser asks
        // again each time (an ETag makes that a 304), so a photo is not shown from its cache once its
        // viewer signed out, was unfriended or the photo was deleted, and the upright copy replaces
        // the first one as soon as it exists.
        response.headers.replaceOrAdd(name: .cacheControl, value: "private, no-cache")
        response.headers.replaceOrAdd(name: .contentDisposition, value: "inline")
        return response
    }

    /// A photo kept while its form is fixed: only its owner sees it, and only while it is kept.
    func held(req: Request) async throws -> Response {
        guard let viewer = req.currentUser, let key = req.parameters.get("key"),
            let held = HeldPhoto.find(key, owner: try viewer.requireID(), now: req.now, config: req.application.config),
            let format = ImageFormat(rawValue: held.format)
        else { throw Abort(.notFound) }
        let response = try await req.fileio.asyncStreamFile(at: PhotoStore.servedPath(held.servedFile, config: req.application.config), mediaType: nil)
        response.headers.replaceOrAdd(name: .contentType, value: format.mimeType)
        response.headers.replaceOrAdd(name: .cacheControl, value: "private, no-store")
        return response
    }

    static func mayView(_ photo: Photo, viewer: User, on db: any Database) async throws -> Bool {
        let id = try photo.requireID()
        if let challenge = try await Challenge.query(on: db).filter(\.$photo.$id == id).first() {
            return try await ChallengeAccess.load(challenge, viewer: viewer, on: db).canView
        }
        if let response = try await ChallengeResponse.query(on: db).filter(\.$photo.$id == id).first(),
            let challenge = try await Challenge.find(response.$challenge.id, on: db)
        {
            let access = try await ChallengeAccess.load(challenge, viewer: viewer, on: db)
            return access.canView && access.canSee(response)
        }
        return false
    }
}
