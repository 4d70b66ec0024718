//! Counting live bot processes, so that their number can be capped: each
//! process counted holds a [`Counted`] until it is gone.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use tokio::sync::Notify;

/// The live processes of one pool, at most `cap` of them.
#[derive(Debug)]
pub struct Census {
    live: AtomicUsize,
    cap: AtomicUsize,
    freed: Notify,
}

impl Census {
    /// A census of no process, allowing `cap` (at least 1).
    pub fn new(cap: usize) -> Arc<Census> {
        Arc::new(Census { live: AtomicUsize::new(0), cap: AtomicUsize::new(cap.max(1)), freed: Notify::new() })
    }

    /// Allows `cap` (at least 1) from now on: processes alive beyond it stay.
    pub fn recap(&self, cap: usize) {
        self.cap.store(cap.max(1), Ordering::SeqCst);
        self.freed.notify_waiters();
    }

    /// Counts one more process, unless `cap` are alive.
    pub fn try_count(self: &Arc<Self>) -> Option<Counted> {
        self.try_count_keeping(0)
    }

    /// Counts one more process, unless that would leave room for fewer than `keep` more.
    pub fn try_count_keeping(self: &Arc<Self>, keep: usize) -> Option<Counted> {
        let cap = self.cap.load(Ordering::SeqCst);
        self.live
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |live| (live + keep < cap).then_some(live + 1))
            .ok()
            .map(|_| Counted(Arc::clone(self)))
    }

    #[cfg(test)]
    /// How many processes are alive.
    pub fn live(&self) -> usize {
        self.live.load(Ordering::SeqCst)
    }

    /// Waits until a process counted here is gone. To miss none, call it
    /// (and enable the future it returns) before [`Census::try_count`].
    pub fn freed(&self) -> tokio::sync::futures::Notified<'_> {
        self.freed.notified()
    }
}

/// One live process of a [`Census`]; dropping it counts the process gone.
#[derive(Debug)]
pub struct Counted(Arc<Census>);

impl Drop for Counted {
    fn drop(&mut self) {
        self.0.live.fetch_sub(1, Ordering::SeqCst);
        self.0.freed.notify_waiters();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_up_to_the_cap() {
        let census = Census::new(2);
        let first = census.try_count().unwrap();
        let _second = census.try_count().unwrap();
        assert!(census.try_count().is_none());
        assert_eq!(census.live(), 2);
        assert!(Census::new(3).try_count_keeping(2).is_some() && Census::new(3).try_count_keeping(3).is_none());
        census.recap(1);
        assert!(census.try_count().is_none());
        census.recap(3);
        drop(first);
        assert_eq!(census.live(), 1);
        assert!(census.try_count().is_some());
    }

    #[test]
    fn a_waiter_hears_of_a_process_gone() {
        let runtime = tokio::runtime::Builder::new_current_thread().build().unwrap();
        let census = Census::new(1);
        let counted = census.try_count().unwrap();
        runtime.block_on(async {
            let freed = census.freed();
            tokio::pin!(freed);
            freed.as_mut().enable();
            assert!(census.try_count().is_none());
            drop(counted);
            freed.await;
            assert!(census.try_count().is_some());
        });
    }
}
