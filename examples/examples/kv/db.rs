//! The shared state: string keys with optional expiry, and the publish /
//! subscribe registry.
//!
//! Expiry is lazy: a key past its deadline is treated as missing and
//! removed when it is next touched, and expired keys are swept before the
//! store refuses a new key for being full. `std::sync::Mutex` is the right
//! lock here because it is never held across an `.await`.

use rt::sync::mpsc;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// Most keys the store holds before `SET` of a new key is refused.
pub const MAX_KEYS: usize = 1_000_000;

/// A message delivered to a subscriber: (channel, payload).
pub type Message = (Arc<[u8]>, Arc<[u8]>);

struct Entry {
    value: Vec<u8>,
    expires_at: Option<Instant>,
}

impl Entry {
    fn is_live(&self, now: Instant) -> bool {
        self.expires_at.map_or(true, |at| at > now)
    }
}

/// Why a write was refused.
pub enum WriteError {
    /// The store holds [`MAX_KEYS`] live keys.
    Full,
    /// `INCR` found a value that is not a 64-bit integer.
    NotAnInteger,
    /// `INCR` would overflow.
    Overflow,
}

/// Keys and subscriptions shared by every connection.
#[derive(Default)]
pub struct Db {
    keys: Mutex<HashMap<Vec<u8>, Entry>>,
    channels: Mutex<HashMap<Vec<u8>, Vec<Inbox>>>,
}

/// Where a subscribed connection's messages go.
#[derive(Clone)]
pub struct Inbox {
    /// Which connection this is, so it can unsubscribe.
    pub connection: u64,
    /// The bounded queue the connection drains.
    pub sender: mpsc::Sender<Message>,
    /// Set when the queue was full: the connection is then too slow and
    /// gets disconnected.
    pub overflowed: Arc<AtomicBool>,
}

impl Db {
    fn keys(&self) -> MutexGuard<'_, HashMap<Vec<u8>, Entry>> {
        // A panic while holding the lock cannot leave a map half-updated in
        // a way that matters here, so carry on with the data.
        self.keys
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Looks up a live entry, removing it if it has expired.
    fn live<'a>(
        map: &'a mut HashMap<Vec<u8>, Entry>,
        key: &[u8],
        now: Instant,
    ) -> Option<&'a mut Entry> {
        if map.get(key).is_some_and(|e| !e.is_live(now)) {
            map.remove(key);
        }
        map.get_mut(key)
    }

    /// The value of `key`, if it exists and has not expired.
    pub fn get(&self, key: &[u8]) -> Option<Vec<u8>> {
        let mut map = self.keys();
        Self::live(&mut map, key, Instant::now()).map(|e| e.value.clone())
    }

    /// Sets `key` to `value`, replacing any previous value and expiry.
    pub fn set(&self, key: &[u8], value: Vec<u8>, ttl: Option<Duration>) -> Result<(), WriteError> {
        let now = Instant::now();
        let mut map = self.keys();
        if !map.contains_key(key) && map.len() >= MAX_KEYS {
            map.retain(|_, e| e.is_live(now));
            if map.len() >= MAX_KEYS {
                return Err(WriteError::Full);
            }
        }
        // A time to live too long to represent simply never runs out.
        let expires_at = ttl.and_then(|ttl| now.checked_add(ttl));
        map.insert(key.to_vec(), Entry { value, expires_at });
        Ok(())
    }

    /// Removes `key`; says whether a live key was there.
    pub fn del(&self, key: &[u8]) -> bool {
        let now = Instant::now();
        self.keys().remove(key).is_some_and(|e| e.is_live(now))
    }

    /// Adds one to the integer at `key` (a missing key counts as 0), keeping
    /// its expiry.
    pub fn incr(&self, key: &[u8]) -> Result<i64, WriteError> {
        let now = Instant::now();
        let mut map = self.keys();
        if let Some(entry) = Self::live(&mut map, key, now) {
            let current = std::str::from_utf8(&entry.value)
                .ok()
                .and_then(|text| text.parse::<i64>().ok())
                .ok_or(WriteError::NotAnInteger)?;
            let next = current.checked_add(1).ok_or(WriteError::Overflow)?;
            entry.value = next.to_string().into_bytes();
            return Ok(next);
        }
        drop(map);
        self.set(key, b"1".to_vec(), None)?;
        Ok(1)
    }

    /// Gives `key` a time to live; `None` removes the key at once (what a
    /// zero or negative `EXPIRE` means). Says whether the key existed.
    pub fn expire(&self, key: &[u8], ttl: Option<Duration>) -> bool {
        let now = Instant::now();
        let mut map = self.keys();
        let Some(entry) = Self::live(&mut map, key, now) else {
            return false;
        };
        match ttl {
            Some(ttl) => entry.expires_at = now.checked_add(ttl),
            None => {
                map.remove(key);
            }
        }
        true
    }

    /// Time left for `key`: `Err(-2)` when missing, `Err(-1)` when it never
    /// expires (the codes `TTL` replies with).
    pub fn ttl(&self, key: &[u8]) -> Result<Duration, i64> {
        let now = Instant::now();
        let mut map = self.keys();
        let entry = Self::live(&mut map, key, now).ok_or(-2)?;
        let at = entry.expires_at.ok_or(-1)?;
        Ok(at.saturating_duration_since(now))
    }

    fn channels(&self) -> MutexGuard<'_, HashMap<Vec<u8>, Vec<Inbox>>> {
        self.channels
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Registers `inbox` for `channel` (idempotent).
    pub fn subscribe(&self, channel: &[u8], inbox: &Inbox) {
        let mut channels = self.channels();
        let subscribers = channels.entry(channel.to_vec()).or_default();
        if !subscribers.iter().any(|s| s.connection == inbox.connection) {
            subscribers.push(inbox.clone());
        }
    }

    /// Removes `connection` from `channel`.
    pub fn unsubscribe(&self, channel: &[u8], connection: u64) {
        let mut channels = self.channels();
        if let Some(subscribers) = channels.get_mut(channel) {
            subscribers.retain(|s| s.connection != connection);
            if subscribers.is_empty() {
                channels.remove(channel);
            }
        }
    }

    /// Delivers `payload` to every subscriber of `channel` and returns how
    /// many got it. A subscriber whose inbox is full is unsubscribed and
    /// flagged for disconnection rather than allowed to slow the publisher.
    pub fn publish(&self, channel: &[u8], payload: &[u8]) -> usize {
        let mut channels = self.channels();
        let Some(subscribers) = channels.get_mut(channel) else {
            return 0;
        };
        let message: Message = (channel.into(), payload.into());
        let mut delivered = 0;
        subscribers.retain(|s| match s.sender.try_send(message.clone()) {
            Ok(()) => {
                delivered += 1;
                true
            }
            Err(_) => {
                s.overflowed.store(true, Ordering::Relaxed);
                false
            }
        });
        if subscribers.is_empty() {
            channels.remove(channel);
        }
        delivered
    }
}
