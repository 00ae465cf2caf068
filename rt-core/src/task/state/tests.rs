use super::*;

fn state_with(refs: usize, flags: usize) -> State {
    State {
        val: AtomicUsize::new((refs * REF_ONE) | flags),
    }
}

#[test]
fn initial_state() {
    let s = State::new().load();
    assert_eq!(s.ref_count(), 3);
    assert!(s.is_notified() && s.is_join_interested() && s.is_idle());
    assert!(!s.is_cancelled() && !s.is_join_waker_set());
}

#[test]
fn running_then_idle_then_notified_while_running() {
    let s = State::new();
    assert_eq!(s.transition_to_running(), TransitionToRunning::Success);
    assert!(s.load().is_running() && !s.load().is_notified());
    assert_eq!(
        s.transition_to_notified_by_ref(),
        TransitionToNotified::DoNothing
    );
    assert!(s.load().is_notified());
    assert_eq!(s.transition_to_idle(), TransitionToIdle::OkNotified);
    assert_eq!(
        s.load().ref_count(),
        3,
        "poll ref moved to the new Notified"
    );
    assert_eq!(s.transition_to_running(), TransitionToRunning::Success);
    assert_eq!(s.transition_to_idle(), TransitionToIdle::Ok);
    assert_eq!(s.load().ref_count(), 2);
}

#[test]
fn idle_dealloc_when_last_reference() {
    let s = state_with(1, NOTIFIED);
    assert_eq!(s.transition_to_running(), TransitionToRunning::Success);
    assert_eq!(s.transition_to_idle(), TransitionToIdle::OkDealloc);
}

#[test]
fn running_a_cancelled_task_cancels() {
    let s = state_with(2, NOTIFIED | CANCELLED);
    assert_eq!(s.transition_to_running(), TransitionToRunning::Cancelled);
    assert!(s.load().is_running());
}

#[test]
fn stale_notified_fails_or_deallocs() {
    let s = state_with(2, NOTIFIED | RUNNING);
    assert_eq!(s.transition_to_running(), TransitionToRunning::Failed);
    assert_eq!(s.load().ref_count(), 1);
    let s = state_with(1, NOTIFIED | COMPLETE);
    assert_eq!(s.transition_to_running(), TransitionToRunning::Dealloc);
}

#[test]
fn cancel_seen_at_idle() {
    let s = state_with(2, RUNNING | CANCELLED);
    assert_eq!(s.transition_to_idle(), TransitionToIdle::Cancelled);
    assert!(s.load().is_running(), "still owns the future");
}

#[test]
fn complete_and_terminal() {
    let s = state_with(3, RUNNING | JOIN_INTEREST);
    let snap = s.transition_to_complete();
    assert!(snap.is_complete() && !snap.is_running());
    assert!(!s.transition_to_terminal(2));
    assert!(s.transition_to_terminal(1));
}

#[test]
fn notify_by_val_submit_transfers_reference() {
    let s = state_with(2, 0);
    assert_eq!(
        s.transition_to_notified_by_val(),
        TransitionToNotified::Submit
    );
    assert_eq!(s.load().ref_count(), 2);
    assert!(s.load().is_notified());
    // Already notified: the waker's reference is dropped.
    assert_eq!(
        s.transition_to_notified_by_val(),
        TransitionToNotified::DoNothing
    );
    assert_eq!(s.load().ref_count(), 1);
    let s = state_with(1, COMPLETE);
    assert_eq!(
        s.transition_to_notified_by_val(),
        TransitionToNotified::Dealloc
    );
}

#[test]
fn notify_by_val_while_running_sets_bit_and_drops_ref() {
    let s = state_with(2, RUNNING);
    assert_eq!(
        s.transition_to_notified_by_val(),
        TransitionToNotified::DoNothing
    );
    assert!(s.load().is_notified());
    assert_eq!(s.load().ref_count(), 1);
}

#[test]
fn notify_by_ref_takes_reference_only_on_submit() {
    let s = state_with(1, 0);
    assert_eq!(
        s.transition_to_notified_by_ref(),
        TransitionToNotified::Submit
    );
    assert_eq!(s.load().ref_count(), 2);
    assert_eq!(
        s.transition_to_notified_by_ref(),
        TransitionToNotified::DoNothing
    );
    assert_eq!(s.load().ref_count(), 2);
    let s = state_with(1, COMPLETE);
    assert_eq!(
        s.transition_to_notified_by_ref(),
        TransitionToNotified::DoNothing
    );
}

#[test]
fn remote_abort_cases() {
    // Idle: schedule with a new reference.
    let s = state_with(1, 0);
    assert!(s.transition_to_notified_and_cancel());
    assert_eq!(s.load().ref_count(), 2);
    assert!(s.load().is_cancelled() && s.load().is_notified());
    // Second abort: nothing.
    assert!(!s.transition_to_notified_and_cancel());
    // Running: flag only.
    let s = state_with(1, RUNNING);
    assert!(!s.transition_to_notified_and_cancel());
    assert!(s.load().is_cancelled());
    // Queued: flag only.
    let s = state_with(1, NOTIFIED);
    assert!(!s.transition_to_notified_and_cancel());
    assert!(s.load().is_cancelled());
    // Complete: nothing.
    let s = state_with(1, COMPLETE);
    assert!(!s.transition_to_notified_and_cancel());
    assert!(!s.load().is_cancelled());
}

#[test]
fn shutdown_takes_running_only_when_idle() {
    let s = state_with(1, 0);
    assert!(s.transition_to_shutdown());
    assert!(s.load().is_running() && s.load().is_cancelled());
    let s = state_with(1, RUNNING);
    assert!(!s.transition_to_shutdown());
    let s = state_with(1, COMPLETE);
    assert!(!s.transition_to_shutdown());
}

#[test]
fn join_handle_fast_drop_only_from_initial_state() {
    let s = State::new();
    assert!(s.drop_join_handle_fast().is_ok());
    let snap = s.load();
    assert_eq!(snap.ref_count(), 2);
    assert!(!snap.is_join_interested());
    let s = State::new();
    let _ = s.transition_to_running();
    assert!(s.drop_join_handle_fast().is_err());
}

#[test]
fn join_waker_protocol() {
    let s = state_with(2, JOIN_INTEREST);
    assert!(s.set_join_waker().is_ok());
    assert!(s.load().is_join_waker_set());
    assert!(s.unset_join_waker().is_ok());
    assert!(s.set_join_waker().is_ok());
    // Completion wins over a replace.
    let s = state_with(2, JOIN_INTEREST | JOIN_WAKER | COMPLETE);
    assert!(s.unset_join_waker().is_err());
    let after = s.unset_waker_after_complete();
    assert!(after.is_join_interested() && !after.is_join_waker_set());
    let s = state_with(2, JOIN_INTEREST | COMPLETE);
    assert!(s.set_join_waker().is_err());
}

#[test]
fn join_handle_dropped_before_and_after_completion() {
    // Before completion with a waker: the handle takes the slot back.
    let s = state_with(2, JOIN_INTEREST | JOIN_WAKER);
    assert_eq!(s.transition_to_join_handle_dropped(), (false, true));
    assert!(!s.load().is_join_waker_set());
    // After completion with the runtime still holding the slot: the
    // runtime drops the waker.
    let s = state_with(2, JOIN_INTEREST | JOIN_WAKER | COMPLETE);
    assert_eq!(s.transition_to_join_handle_dropped(), (true, false));
    assert!(!s.unset_waker_after_complete().is_join_interested());
    // After completion, slot already released: the handle drops it.
    let s = state_with(2, JOIN_INTEREST | COMPLETE);
    assert_eq!(s.transition_to_join_handle_dropped(), (true, true));
}

#[test]
fn reference_counting() {
    let s = state_with(2, 0);
    s.ref_inc();
    assert!(!s.ref_dec());
    assert!(!s.ref_dec());
    assert!(s.ref_dec());
    let s = state_with(2, 0);
    assert!(s.ref_dec_twice());
}

#[test]
fn replacing_the_join_waker_after_completion_fails_cleanly() {
    // Completion sets COMPLETE, wakes, then clears JOIN_WAKER; a JoinHandle
    // that read the state before all that must see "complete", not trip.
    let s = state_with(2, JOIN_INTEREST | COMPLETE);
    assert!(s.unset_join_waker().is_err());
}
