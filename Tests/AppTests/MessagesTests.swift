@testable import App
import Fluent
import Foundation
import Testing
import Vapor

/// Conversations over HTTP: who is in one (read from the team, game or plan each time), what
/// arrives live on an open page, unread counts, moderation, and the rules for direct messages.
@Suite("Messages")
struct MessagesTests {
    /// The header's unread messages, as a person reads it on any page.
    static func unread(_ browser: Browser) async throws -> Int {
        let home = try await browser.get("/friends")
        #expect(home.status == .ok)
        return Int(home.firstMatch(#"href="/messages"[^>]*>Messages <span class="count">(\d+)<"#) ?? "0") ?? -1
    }

    /// The conversation's path, opened from its subject's page link.
    static func open(_ browser: Browser, _ link: String) async throws -> String {
        let opened = try await browser.get(link)
        #expect(opened.status == .seeOther, "\(link): \(opened.status)")
        return try #require(opened.location)
    }

    @Test func aTeamTalksLiveAndOnlyItsMembersHear() async throws {
        try await withApp { app in
            let cast = try await TeamCast.make(app, privacy: "protected")
            let link = "/teams/\(cast.slug)/messages"
            #expect(try await cast.stranger.get(link).status == .notFound)
            #expect(try await Conversation.query(on: app.db).count() == 0, "knocking on the door makes no conversation")
            #expect(try await cast.player.get("/teams/\(cast.slug)").contains(link), "members find it on the team page")
            #expect(try await !cast.stranger.get("/teams/\(cast.slug)").contains(link))
            let path = try await Self.open(cast.player, link)
            #expect(try await Self.open(cast.owner, link) == path, "one conversation per team")

            // Nobody outside the team reads, writes or follows it, whatever they know of it.
            for (who, browser) in [("stranger", cast.stranger), ("requester", cast.requester), ("invitee", cast.invitee)] {
                #expect(try await browser.get(link).status == .notFound, "\(who)")
                #expect(try await browser.get(path).status == .notFound, "\(who)")
                #expect(try await browser.post(path, [("body", "hi")], csrfFrom: "/").status == .notFound, "\(who)")
                #expect(try await EventStream.status(browser, path + "/events") == .notFound, "\(who)")
            }
            #expect(try await cast.anonymous.get(path).location?.hasPrefix("/login") == true)

            // The manager's page is open; what the player writes arrives on it without a reload.
            let stream = try await EventStream.open(cast.manager, path + "/events")
            #expect(stream.status == .ok)
            let sent = try await cast.player.post(path, [("body", "Pitch moved to **19:00**"), ("key", "k1")], csrfFrom: path)
            #expect(sent.status == .seeOther)
            let event = try #require(try await stream.next(within: .seconds(10)), "the message arrives live")
            #expect(event.name == "message")
            let html = try #require(event.json["html"] as? String)
            #expect(html.contains("Pitch moved to <strong>19:00</strong>") && html.contains("Pia Player"))
            stream.close()

            // The same form sent twice is one message; the coach, who was not looking, has one unread.
            #expect(try await cast.player.post(path, [("body", "Pitch moved to **19:00**"), ("key", "k1")], csrfFrom: path).status == .seeOther)
            #expect(try await Message.query(on: app.db).count() == 1)
            #expect(try await Self.unread(cast.coach) == 1)
            #expect(try await Self.unread(cast.player) == 0, "one's own message is read")
            let inbox = try await cast.coach.get("/messages")
            #expect(inbox.contains("Matrix United") && inbox.contains(#"<span class="count">1<"#))
            #expect(try await cast.coach.get(path).contains("Pitch moved to"))
            #expect(try await Self.unread(cast.coach) == 0, "reading the page reads it")

            // Muting: new messages no longer count.
            #expect(try await cast.coach.post(path + "/mute", [("muted", "1")], csrfFrom: path).status == .seeOther)
            try await cast.owner.post(path, [("body", "Who has the bibs?")], csrfFrom: path)
            #expect(try await Self.unread(cast.coach) == 0)
            #expect(try await Self.unread(cast.manager) == 2, "what reached an open page live is read on the next visit")

            // Leaving the team leaves its conversation: no page, no count.
            #expect(try await cast.manager.post("/teams/\(cast.slug)/leave", [], csrfFrom: "/teams/\(cast.slug)").status == .seeOther)
            #expect(try await cast.manager.get(path).status == .notFound)
            #expect(try await Self.unread(cast.manager) == 0)
            #expect(try await !cast.manager.get("/messages").contains(#"href="\#(path)""#))

            // The coach blocks the player from her message (no profile needed): it folds away for him.
            let pias = try #require(try await Message.query(on: app.db).filter(\.$body ~~ "Pitch moved").first()?.requireID())
            #expect(try await cast.player.post("\(path)/m/\(SiteURL.id(pias))/block", [], csrfFrom: path).status == .forbidden, "not oneself")
            #expect(try await cast.coach.post("\(path)/m/\(SiteURL.id(pias))/block", [], csrfFrom: path).status == .seeOther)
            let folded = try await cast.coach.get(path)
            #expect(folded.contains("A message from someone you blocked.") && !folded.contains("Pitch moved"))
            #expect(try await Block.query(on: app.db).count() == 1)
        }
    }

    @Test func formsRefuseNonsenseAndKeepWhatWasTyped() async throws {
        try await withApp { app in
            let cast = try await TeamCast.make(app, privacy: "private")
            let path = try await Self.open(cast.player, "/teams/\(cast.slug)/messages")
            // The limit below counts a minute: the clock stands still between posts, however slow
            // the machine.
            app.clock.stop()

            let heavy = try await cast.player.post(path, [("body", "a" + String(repeating: "\u{301}", count: 5000))], csrfFrom: path)
            #expect(heavy.status == .unprocessableEntity, "one character with 5,000 accents is too long")
            let empty = try await cast.player.post(path, [("body", "  ")], csrfFrom: path)
            #expect(empty.status == .unprocessableEntity && empty.contains("Write a message first"))
            let long = try await cast.player.post(path, [("body", String(repeating: "é", count: 2001))], csrfFrom: path)
            #expect(long.status == .unprocessableEntity && long.contains("this one has 2001"))
            #expect(long.contains(String(repeating: "é", count: 2001)), "what was typed stays")
            let stray = try await cast.player.post(path, [("body", "hi"), ("reply_to", SiteURL.id(UUID()))], csrfFrom: path)
            #expect(stray.status == .unprocessableEntity)
            // HTML is text; a script link loses its link; Markdown lists work.
            try await cast.player.post(path, [("body", "<script>alert(1)</script> [x](javascript:alert(1))\n\n- one\n- two")], csrfFrom: path)
            let page = try await cast.owner.get(path)
            #expect(page.contains("alert(1)") && !page.contains("<script>alert(1)"))
            #expect(!page.contains(#"href="javascript"#) && page.contains("<li>one</li>"))
            // A heading brings no id to clash with the page's, and a picture stays words.
            try await cast.player.post(path, [("body", "# compose\n\n![a face](/favicon.ico) and a note[^1]\n\n[^1]: small")], csrfFrom: path)
            let drawn = try await cast.owner.get(path)
            #expect(drawn.contains("<h1>compose</h1>") && drawn.body.components(separatedBy: #"id="compose""#).count == 2, "the form's own id only")
            #expect(!drawn.contains(#"<img src="/favicon.ico""#) && !drawn.contains("fn:1"))
            for hostile in [
                "/messages/not-an-id", "/messages/\(SiteURL.id(UUID()))", "/teams/no-such-team/messages", "/games/x/messages",
                "/games/\(SiteURL.id(UUID()))/messages", "/plans/\(SiteURL.id(UUID()))/messages", "/u/nobody_here/message",
            ] {
                #expect(try await cast.player.get(hostile).status == .notFound, "\(hostile)")
            }
            // Twenty a minute, then a clear refusal; a minute later, on again.
            var statuses: [HTTPStatus] = []
            for n in 0..<20 { statuses.append(try await cast.player.post(path, [("body", "n\(n)")], csrfFrom: path).status) }
            #expect(statuses.allSatisfy { $0 == .seeOther } == false, "the 21st in a minute is refused")
            let fast = try await cast.player.post(path, [("body", "too fast")], csrfFrom: path)
            #expect(fast.status == .tooManyRequests && fast.contains("too fast"))
            app.clock.advance(by: 61)
            for n in 0..<19 { try await cast.player.post(path, [("body", "m\(n)")], csrfFrom: path) }
            app.clock.advance(by: 61)
            #expect(try await cast.player.post(path, [("body", "later")], csrfFrom: path).status == .seeOther)
            #expect(try await cast.owner.post(path, [("body", "forty-first")], csrfFrom: path).status == .seeOther)
            #expect(try await Message.query(on: app.db).count() == 41)
            // Paging: forty to a page, older ones a link away.
            let latest = try await cast.owner.get(path)
            #expect(latest.contains("?page=2") && latest.contains("later"))
            #expect(try await cast.owner.get(path + "?page=2").contains("alert(1)"))
        }
    }

    /// What stays unread comes by e-mail as one digest, after time to read it on the site, at most
    /// every six hours and only with something new; not to those who read it or turned it off.
    @Test func unreadMessagesComeByEmailAsOneDigest() async throws {
        try await withMailApp { app, sink in
            let cast = try await TeamCast.make(app, privacy: "private")
            try await User.query(on: app.db).set(\.$emailConfirmedAt, to: app.clock.now).update()
            // Messages have their own count, not the bell: their choices are e-mail and browsers.
            let settings = try await cast.manager.get("/settings/notifications")
            #expect(settings.contains(#"id="email-messages""#) && !settings.contains(#"id="in-app-messages""#))
            let everyTopic = NotificationTopic.allCases.map(\.rawValue)
            let off = [("email_shown", "1")] + everyTopic.map { ("in_app[]", $0) } + everyTopic.filter { $0 != "messages" }.map { ("email[]", $0) }
            #expect(try await cast.manager.post("/settings/notifications", off, csrfFrom: "/settings/notifications").status == .seeOther)
            let path = try await Self.open(cast.player, "/teams/\(cast.slug)/messages")
            for text in ["Pitch moved to 19:00", "Who has the bibs?", "I do, see you there"] {
                try await cast.player.post(path, [("body", text)], csrfFrom: path)
            }
            _ = try await cast.coach.get(path)
            func digests(to address: String? = nil) throws -> [SMTPSink.Mail] {
                try sink.messages().filter { $0.subject.contains("unread message") && (address == nil || $0.envelopeTo == address) }
            }
            try await app.app.jobs.runDue(app.app)
            #expect(try digests().isEmpty, "half an hour to read them on the site first")
            app.clock.advance(by: 31 * 60)
            try await app.app.jobs.runDue(app.app)
            let first = try digests()
            #expect(first.map(\.envelopeTo) == ["owner_o@example.org"], "not the author, the reader, nor who turned it off")
            let mail = try #require(first.first)
            #expect(mail.subject == "3 unread messages on Fieldhouse")
            #expect(mail.text.contains("Matrix United: 3 unread messages.\nPia Player: I do, see you there"))
            #expect(mail.text.contains(app.app.config.baseURL + "/messages") && mail.headers["list-unsubscribe"] != nil)
            // Nothing new: no second digest. Something new waits for six hours since the last.
            app.clock.advance(by: 31 * 60)
            try await app.app.jobs.runDue(app.app)
            try await cast.player.post(path, [("body", "Bring water")], csrfFrom: path)
            app.clock.advance(by: 31 * 60)
            try await app.app.jobs.runDue(app.app)
            #expect(try digests(to: "owner_o@example.org").count == 1)
            // The coach, who had read the first three, hears of the new one alone.
            #expect(try digests(to: "coach_c@example.org").map(\.subject) == ["1 unread message on Fieldhouse"])
            app.clock.advance(by: 6 * 3600)
            try await app.app.jobs.runDue(app.app)
            #expect(
                try digests(to: "owner_o@example.org").map(\.subject) == ["3 unread messages on Fieldhouse", "4 unread messages on Fieldhouse"])
        }
    }

    /// Many tabs posting at once cannot pass the limit of twenty a minute together.
    @Test func theLimitHoldsUnderParallelPosts() async throws {
        try await withApp { app in
            let cast = try await TeamCast.make(app, privacy: "private")
            let path = try await Self.open(cast.player, "/teams/\(cast.slug)/messages")
            app.clock.stop()
            for n in 0..<(Message.perMinute - 3) { try await cast.player.post(path, [("body", "n\(n)")], csrfFrom: path) }
            let token = try #require(try await cast.player.get(path).csrf)
            let statuses = try await withThrowingTaskGroup(of: HTTPStatus.self) { group in
                for n in 0..<6 {
                    let tab = app.browser()
                    for (name, value) in cast.player.cookies { tab.setCookie(name, value) }
                    group.addTask { try await tab.post(path, [("csrf", token), ("body", "tab \(n)")], csrfFrom: nil).status }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == .seeOther }.count == 3 && statuses.filter { $0 == .tooManyRequests }.count == 3)
            #expect(try await Message.query(on: app.db).count() == Message.perMinute)
        }
    }

    @Test func authorsEditForAWhileAndModeratorsHideWhatIsReported() async throws {
        try await withApp { app in
            let cast = try await TeamCast.make(app, privacy: "protected")
            let path = try await Self.open(cast.player, "/teams/\(cast.slug)/messages")
            let first = try await cast.player.post(path, [("body", "I can bring the bibs")], csrfFrom: path)
            let id = String(try #require(first.location).split(separator: "#m-").last!)
            let m = "\(path)/m/\(id)"
            // A reply quotes what it answers.
            let replying = try await cast.coach.get(path + "?reply=\(id)")
            #expect(replying.contains(#"name="reply_to" value="\#(id)""#))
            try await cast.coach.post(path, [("body", "Thanks!"), ("reply_to", id)], csrfFrom: path)
            #expect(try await cast.owner.get(path).contains(#"class="message-quote""#))
            // The coach's page stays open: edits, hidings and deletions reach it without a reload.
            let open = try await EventStream.open(cast.coach, path + "/events")
            func next(_ name: String) async throws -> String {
                let event = try #require(try await open.next(within: .seconds(10)), "\(name) arrives live")
                #expect(event.name == name && event.json["anchor"] as? String == "m-\(id)")
                return event.json["html"] as? String ?? ""
            }

            #expect(try await cast.coach.get(m + "/edit").status == .forbidden, "only the author edits")
            #expect(try await cast.player.post(m + "/edit", [("body", "I can bring the bibs and cones")], csrfFrom: m + "/edit").status == .seeOther)
            #expect(try await cast.owner.get(path).contains("bibs and cones"))
            #expect(try await next("update").contains("bibs and cones"))
            app.clock.advance(by: 16 * 60)
            #expect(try await cast.player.get(m + "/edit").status == .forbidden, "15 minutes to change it")
            #expect(try await cast.player.post(m + "/delete", [], csrfFrom: path).status == .forbidden)
            #expect(try await cast.coach.post(m + "/delete", [], csrfFrom: path).status == .forbidden, "a coach does not moderate")

            // The coach reports it; the manager sees the report and hides it; the author still sees it, as hidden.
            #expect(try await cast.coach.post(m + "/report", [("reason", "spam")], csrfFrom: path).status == .seeOther)
            #expect(try await cast.coach.post(m + "/report", [("reason", "spam")], csrfFrom: path).status == .seeOther, "twice is once")
            #expect(try await MessageReport.query(on: app.db).count() == 1)
            #expect(try await cast.manager.get(path).contains("1 report"))
            #expect(try await !cast.coach.get(path).contains("1 report"))
            #expect(try await cast.coach.post(m + "/hide", [], csrfFrom: path).status == .forbidden)
            #expect(try await cast.manager.post(m + "/hide", [], csrfFrom: path).status == .seeOther)
            let hidden = try await next("update")
            #expect(hidden.contains("Hidden by a moderator.") && !hidden.contains("bibs and cones"))
            let coachView = try await cast.coach.get(path)
            #expect(coachView.contains("Hidden by a moderator.") && !coachView.contains("bibs and cones"))
            #expect(try await cast.player.get(path).contains("bibs and cones"), "its author still sees it")
            #expect(try await MessageReport.query(on: app.db).filter(\.$resolvedAt == nil).count() == 0)
            // Managers delete any message.
            #expect(try await cast.owner.post(m + "/delete", [], csrfFrom: path).status == .seeOther)
            #expect(try await Message.find(UUID(uuidString: id), on: app.db) == nil)
            _ = try await next("remove")
            open.close()
        }
    }

    @Test func adminsSettleReportsFromDirectConversations() async throws {
        try await withApp { app in
            let ana = app.browser(), ben = app.browser(), adam = app.browser()
            for (name, browser) in [("ana", ana), ("ben", ben), ("adam", adam)] { try await browser.signUp(name) }
            try await User.query(on: app.db).filter(\.$username == "adam").set(\.$role, to: .admin).update()
            try await ana.befriend(ben, "ben", me: "ana")
            let path = try await Self.open(ana, "/u/ben/message")
            let sent = try await ana.post(path, [("body", "rude words")], csrfFrom: path)
            let id = String(try #require(sent.location).split(separator: "#m-").last!)
            #expect(try await ben.post("\(path)/m/\(id)/report", [("reason", "rude")], csrfFrom: path).status == .seeOther)
            // Reported, it can no longer be changed by its author; deleting another leaves its report with the admins.
            #expect(try await ana.post("\(path)/m/\(id)/delete", [], csrfFrom: path).status == .forbidden)
            let other = try await ana.post(path, [("body", "more rude words")], csrfFrom: path)
            let otherID = String(try #require(other.location).split(separator: "#m-").last!)
            #expect(try await ben.post("\(path)/m/\(otherID)/report", [], csrfFrom: path).status == .seeOther)
            try await Message.query(on: app.db).filter(\.$id == UUID(uuidString: otherID)!).delete()
            #expect(try await adam.get("/admin/reports").contains("more rude words"), "the report keeps what was reported")
            #expect(try await ana.get("/admin/reports").status == .forbidden)
            let reports = try await adam.get("/admin/reports")
            #expect(reports.contains("rude words") && reports.contains("rude"))
            #expect(try await adam.get(path).status == .notFound, "admins read reported messages, not conversations")
            let first = try #require(try await MessageReport.query(on: app.db).filter(\.$message.$id == UUID(uuidString: id)!).first()?.requireID())
            #expect(try await adam.post("/admin/reports/\(SiteURL.id(first))/hide", [], csrfFrom: "/admin/reports").status == .seeOther)
            #expect(try await ben.get(path).contains("Hidden by a moderator."))
            let left = try await adam.get("/admin/reports")
            #expect(left.contains("more rude words") && left.contains("deleted since") && !left.contains("Hide it"))
            let gone = try #require(try await MessageReport.query(on: app.db).filter(\.$message.$id == nil).first()?.requireID())
            #expect(try await adam.post("/admin/reports/\(SiteURL.id(gone))/dismiss", [], csrfFrom: "/admin/reports").status == .seeOther)
            #expect(try await adam.get("/admin/reports").contains("No reported messages are waiting."))
        }
    }

    @Test func aChildIsMessagedOnlyByFollowedTeammatesAndBlocksEndIt() async throws {
        try await withApp { app in
            let kid = app.browser(), adult = app.browser(), coach = app.browser(), ana = app.browser(), ben = app.browser()
            try await kid.signUp("kid", name: "Kai Young", birthDate: app.clock.today.adding(days: -(15 * 365 + 10)).description)
            for (name, browser) in [("adult", adult), ("coach", coach), ("ana", ana), ("ben", ben)] { try await browser.signUp(name) }

            // Strangers: a child is not even there for them; adults who don't follow each other are told why.
            #expect(try await adult.get("/u/kid/message").status == .notFound)
            let notYet = try await ana.get("/u/ben/message")
            #expect(notYet.status == .forbidden && notYet.contains("once you follow each other"))
            #expect(try await !ana.get("/u/ben").contains("/u/ben/message"))

            // The adult and the child follow each other (she followed first, so he could find her): still no, they share no team.
            try await kid.post("/u/adult/follow", [], csrfFrom: "/u/adult")
            try await adult.post("/u/kid/follow", [], csrfFrom: "/")
            try await kid.post("/friends/requests/adult/approve", [], csrfFrom: "/friends")
            #expect(try await Follow.query(on: app.db).filter(\.$status == .accepted).count() == 2)
            let refused = try await adult.get("/u/kid/message")
            #expect(refused.status == .forbidden && refused.contains("only by people they follow back who are also their teammates or coaches"))
            // A public team she runs proves nothing: anyone joins it at once.
            let open = try await kid.createTeam("Open Kickers", privacy: "public")
            #expect(try await adult.post("/teams/\(open)/join", [], csrfFrom: "/teams/\(open)").status == .seeOther)
            #expect(try await adult.get("/u/kid/message").status == .forbidden, "joining her public team makes no teammate")
            #expect(try await kid.get("/u/adult/message").status == .forbidden, "nor the other way")
            #expect(try await Conversation.query(on: app.db).count() == 0)

            // The coach of the child's private team, followed both ways: yes.
            try await kid.post("/u/coach/follow", [], csrfFrom: "/u/coach")
            try await coach.post("/u/kid/follow", [], csrfFrom: "/")
            try await kid.post("/friends/requests/coach/approve", [], csrfFrom: "/friends")
            #expect(try await coach.get("/u/kid/message").status == .forbidden, "followed both ways, not yet a teammate")
            let slug = try await coach.createTeam("Junior Hawks", privacy: "private")
            try await coach.post("/teams/\(slug)/invites", [("username", "kid")], csrfFrom: "/teams/\(slug)")
            let invite = try #require(try await kid.get("/teams").firstMatch(#"action="/invites/([^/]+)/accept""#))
            try await kid.post("/invites/\(invite)/accept", [], csrfFrom: "/teams")
            #expect(try await kid.get("/u/coach").contains("/u/coach/message"))
            let path = try await Self.open(coach, "/u/kid/message")
            #expect(try await coach.post(path, [("body", "Training at 5")], csrfFrom: path).status == .seeOther)
            #expect(try await Self.unread(kid) == 1)
            #expect(try await adult.get(path).status == .notFound, "a direct conversation is its two people's")

            // A block ends it at once, both ways; the blocked one is not told why.
            #expect(try await kid.post("/u/coach/block", [], csrfFrom: "/u/coach").status == .seeOther)
            let blocked = try await coach.post(path, [("body", "Hello?")], csrfFrom: "/")
            #expect(blocked.status == .forbidden)
            #expect(try await coach.get(path).contains("once you follow each other"))
            #expect(try await kid.get(path).contains("You blocked Coach"))
            #expect(try await kid.get("/friends").contains("People you blocked"))
            #expect(try await coach.post("/u/kid/follow", [], csrfFrom: "/").status == .seeOther)
            #expect(try await coach.get("/friends").contains("You can&#39;t follow Kai Young."), "no follow crosses a block")
            #expect(
                try await Follow.query(on: app.db).filter(
                    \.$follower.$id == (try await User.query(on: app.db).filter(\.$username == "coach").first()!.requireID())
                ).count() == 0)
            // Nor can they invite the child to a team.
            let other = try await coach.createTeam("Senior Hawks", privacy: "private")
            try await coach.post("/teams/\(other)/invites", [("username", "kid")], csrfFrom: "/teams/\(other)")
            #expect(try await !kid.get("/teams").contains("Senior Hawks"))
            #expect(try await kid.post("/u/coach/unblock", [], csrfFrom: "/friends").status == .seeOther)
            #expect(try await Block.query(on: app.db).count() == 0)
        }
    }

    @Test func messagesAreInTheExportAndGoWithTheAccount() async throws {
        try await withApp { app in
            let ana = app.browser(), ben = app.browser()
            for (name, browser) in [("ana", ana), ("ben", ben)] { try await browser.signUp(name) }
            try await ana.befriend(ben, "ben", me: "ana")
            let path = try await Self.open(ana, "/u/ben/message")
            try await ana.post(path, [("body", "See you at the track")], csrfFrom: path)
            try await ben.post(path, [("body", "Sure")], csrfFrom: path)
            #expect(try await ana.post("/settings/export", [], csrfFrom: "/settings/export").status == .seeOther)
            try await app.app.jobs.runDue(app.app)
            let entries = try AccountExportTests.readZip(try await ana.get("/settings/export/download").bytes)
            #expect(entries["messages.json"]?.contains("See you at the track") == true)
            #expect(entries["messages.json"]?.contains("Sure") == false, "only what she wrote")
            #expect(
                try await ana.post("/settings/delete-account", [("username", "ana"), ("password", Browser.password)], csrfFrom: "/settings/delete-account")
                    .status == .seeOther)
            #expect(try await Message.query(on: app.db).count() == 0, "a direct conversation goes with either of its two people")
        }
    }
}
