import NIOCore
import Vapor

extension Request {
    /// The body of a `body: .stream` route as an async sequence that holds at most two network
    /// chunks ahead of its reader. Vapor's own sequence buffers up to twenty, which for eight
    /// parallel photo uploads is over a megabyte each of memory doing nothing.
    func bodyChunks() -> NIOThrowingAsyncSequenceProducer<
        ByteBuffer, any Error, NIOAsyncSequenceProducerBackPressureStrategies.HighLowWatermark, BodyChunksDelegate
    > {
        let delegate = BodyChunksDelegate(eventLoop: eventLoop)
        let producer = NIOThrowingAsyncSequenceProducer.makeSequence(
            elementType: ByteBuffer.self, failureType: (any Error).self,
            backPressureStrategy: NIOAsyncSequenceProducerBackPressureStrategies.HighLowWatermark(lowWatermark: 1, highWatermark: 2), finishOnDeinit: true,
            delegate: delegate
        )
        let source = producer.source
        let loop = eventLoop
        body.drain { part in
            switch part {
            case .buffer(let buffer):
                switch source.yield(buffer) {
                case .produceMore:
                    return loop.makeSucceededVoidFuture()
                case .stopProducing:
                    // Vapor stops reading the socket until this future completes.
                    let promise = loop.makePromise(of: Void.self)
                    delegate.wait(promise)
                    return promise.futureResult
                case .dropped:
                    return loop.makeFailedFuture(CancellationError())
                }
            case .error(let error):
                source.finish(error)
                return loop.makeSucceededVoidFuture()
            case .end:
                source.finish()
                return loop.makeSucceededVoidFuture()
            }
        }
        return producer.sequence
    }
}

/// Resumes the body stream when the reader wants more. Runs its state on the request's event loop.
final class BodyChunksDelegate: NIOAsyncSequenceProducerDelegate, @unchecked Sendable {
    private let eventLoop: any EventLoop
    private var waiting: EventLoopPromise<Void>?
    private var wantsMore = false

    init(eventLoop: any EventLoop) { self.eventLoop = eventLoop }

    func wait(_ promise: EventLoopPromise<Void>) {
        eventLoop.preconditionInEventLoop()
        if wantsMore {
            wantsMore = false
            promise.succeed(())
        } else {
            waiting = promise
        }
    }

    func produceMore() {
        eventLoop.execute {
            if let promise = self.waiting {
                self.waiting = nil
                promise.succeed(())
            } else {
                self.wantsMore = true
            }
        }
    }

    func didTerminate() {
        eventLoop.execute {
            self.waiting?.fail(CancellationError())
            self.waiting = nil
        }
    }
}
