import SimCore

// A force-quit app's background URLSession transfers are cancelled by the
// system (Apple, `URLError.BackgroundTaskCancelledReason.userForceQuitApplication`:
// "the system canceled the background task because the user force-quit
// the application"). Docs/Mechanisms.md, "Force-quit and these mechanisms".
extension DeviceSimulator {
    /// The user force-quit `app`: its transfer, waiting or on the radio, is
    /// cancelled now (`cancelled_force_quit`). A transfer whose bytes are
    /// already in (waiting for its relaunch) is not a transfer any more and
    /// stays. The energy of a cancelled run so far stays charged, and the
    /// rest of its planned radio energy is not refunded (the radio model
    /// can only cut its last transfer, which this one need not be: a
    /// simplification that overcounts the cancelled run's active energy).
    mutating func transfersSeeForceQuit(app: Int32) {
        let a = Int(app)
        guard let x = mechanisms.transfers!.transfers[a] else { return }
        if case .done = x.phase { return }
        logTransfer(app: app, detail: "cancelled_force_quit", handedAt: x.handedAt, outcome: .failed)
        mechanisms.transfers!.transfers[a] = nil
        metrics.user.urlSession[.cancelledForceQuit] &+= 1
    }
}
