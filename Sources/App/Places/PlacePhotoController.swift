import Fluent
import Vapor

/// A place's managers add photos of it (through the photo pipeline: checked, stripped of metadata,
/// sized in the background) and remove them.
struct PlacePhotoController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.on(.POST, PlacePath.placePhotos, body: .stream, use: add).userInfo[CSRF.checkedByHandler] = true
        routes.post(PlacePath.deletePlacePhoto, use: remove)
    }

    func add(req: Request) async throws -> Response {
        let access = try await PlaceAccess.manager(req, id: req.parameters.get("id"))
        let user = try req.requireUser()
        let placeID = try access.place.requireID()
        let (body, receiver) = try await PhotoReceiver.receiveForm(req)
        do {
            if let missing = receiver.missingMessage(in: body, prompt: t("Choose a photo of the place.")) {
                await receiver.discard()
                req.flash(.error, missing)
                return req.redirect(to: .place(placeID))
            }
            guard try await PlacePhoto.query(on: req.db).filter(\.$place.$id == placeID).count() < PlacePhoto.perPlace else {
                await receiver.discard()
                req.flash(.error, t("A place shows at most {max} photos: remove one first.", PlacePhoto.perPlace))
                return req.redirect(to: .place(placeID))
            }
            let now = req.now
            let photo = try await req.db.inTransaction { db in
                let photo = try await receiver.save(owner: user.requireID(), zone: access.place.timeZone, now: now, on: db)
                try await PlacePhoto(place: placeID, photo: photo.requireID(), addedAt: now).create(on: db)
                return photo
            }
            await req.application.photoSizer.enqueue([try photo.requireID()])
            req.flash(.success, t("Photo added."))
            return req.redirect(to: .place(placeID))
        } catch {
            await receiver.discard()
            throw error
        }
    }

    func remove(req: Request) async throws -> Response {
        let access = try await PlaceAccess.manager(req, id: req.parameters.get("id"))
        let placeID = try access.place.requireID()
        guard let photoID = req.parameters.get("photo", as: UUID.self),
            try await PlacePhoto.query(on: req.db).filter(\.$place.$id == placeID).filter(\.$photo.$id == photoID).first() != nil
        else { throw Abort(.notFound) }
        let removed = try await req.db.inTransaction { db in try await PhotoStore.deleteRows([photoID], on: db) }
        PhotoStore.removeFiles(of: removed, config: req.application.config)
        req.flash(.success, t("Photo removed."))
        return req.redirect(to: .place(placeID))
    }
}
