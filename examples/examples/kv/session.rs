//! One connection's view of the server: runs commands against the shared
//! [`Db`] and keeps the connection's subscriptions.

use super::db::{Db, Inbox, Message, WriteError};
use super::resp::{Command, Reply};
use rt::sync::mpsc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// How many published messages may wait for a subscriber before it is
/// considered too slow.
const INBOX_CAPACITY: usize = 1024;

/// Whether the connection goes on after a command.
#[derive(Debug, PartialEq)]
pub enum Flow {
    /// Keep reading commands.
    Continue,
    /// Flush the replies, then close (`QUIT`).
    Close,
}

/// A connection's state.
pub struct Session {
    db: Arc<Db>,
    inbox: Inbox,
    /// Messages for the channels in `subscriptions`.
    pub messages: mpsc::Receiver<Message>,
    subscriptions: Vec<Vec<u8>>,
}

impl Session {
    /// A session for connection number `connection`.
    pub fn new(db: Arc<Db>, connection: u64) -> Session {
        let (sender, messages) = mpsc::channel(INBOX_CAPACITY);
        let inbox = Inbox {
            connection,
            sender,
            overflowed: Arc::new(AtomicBool::new(false)),
        };
        Session {
            db,
            inbox,
            messages,
            subscriptions: Vec::new(),
        }
    }

    /// Whether the connection is in subscriber mode.
    pub fn is_subscribed(&self) -> bool {
        !self.subscriptions.is_empty()
    }

    /// Whether a publisher found this connection's inbox full.
    pub fn fell_behind(&self) -> bool {
        self.inbox.overflowed.load(Ordering::Relaxed)
    }

    /// The reply a subscriber gets for a published message.
    pub fn message_reply((channel, payload): Message) -> Reply {
        Reply::Array(vec![
            Reply::Bulk(b"message".to_vec()),
            Reply::Bulk(channel.to_vec()),
            Reply::Bulk(payload.to_vec()),
        ])
    }

    /// Runs `command`, appending its reply (or replies) to `out`.
    pub fn execute(&mut self, command: Command, out: &mut Vec<u8>) -> Flow {
        let Some(name) = command.first() else {
            return Flow::Continue;
        };
        let name = String::from_utf8_lossy(name).to_ascii_uppercase();
        let args = &command[1..];
        match name.as_str() {
            "SUBSCRIBE" => self.subscribe(args, out),
            "UNSUBSCRIBE" => self.unsubscribe(args, out),
            "QUIT" => {
                Reply::Simple("OK").write_to(out);
                return Flow::Close;
            }
            "PING" if self.is_subscribed() => {
                let payload = args.first().cloned().unwrap_or_default();
                Reply::Array(vec![Reply::Bulk(b"pong".to_vec()), Reply::Bulk(payload)]).write_to(out);
            }
            _ if self.is_subscribed() => Reply::err(format!(
                "Can't execute '{}': only SUBSCRIBE / UNSUBSCRIBE / PING / QUIT are allowed in this context",
                name.to_ascii_lowercase()
            ))
            .write_to(out),
            _ => self.run(&name, args).write_to(out),
        }
        Flow::Continue
    }

    fn run(&self, name: &str, args: &[Vec<u8>]) -> Reply {
        let arity_ok = match name {
            "PING" => args.len() <= 1,
            "ECHO" | "GET" | "INCR" | "TTL" => args.len() == 1,
            "SET" => args.len() >= 2,
            "DEL" => !args.is_empty(),
            "EXPIRE" | "PUBLISH" => args.len() == 2,
            "CONFIG" => !args.is_empty(),
            "COMMAND" => true,
            _ => return Reply::err(format!("unknown command '{name}'")),
        };
        if !arity_ok {
            return Reply::err(format!(
                "wrong number of arguments for '{}' command",
                name.to_ascii_lowercase()
            ));
        }
        match name {
            "PING" => match args.first() {
                Some(payload) => Reply::Bulk(payload.clone()),
                None => Reply::Simple("PONG"),
            },
            "ECHO" => Reply::Bulk(args[0].clone()),
            "GET" => self.db.get(&args[0]).map_or(Reply::Nil, Reply::Bulk),
            "SET" => self.set(args),
            "DEL" => Reply::Integer(args.iter().filter(|key| self.db.del(key)).count() as i64),
            "INCR" => match self.db.incr(&args[0]) {
                Ok(n) => Reply::Integer(n),
                Err(e) => write_error(e),
            },
            "EXPIRE" => match parse_int(&args[1]) {
                Some(secs) => {
                    let ttl = (secs > 0).then(|| Duration::from_secs(secs as u64));
                    Reply::Integer(self.db.expire(&args[0], ttl) as i64)
                }
                None => Reply::err("value is not an integer or out of range"),
            },
            "TTL" => match self.db.ttl(&args[0]) {
                // Round to the nearest second, as Redis does.
                Ok(left) => Reply::Integer(((left.as_millis() + 500) / 1000) as i64),
                Err(code) => Reply::Integer(code),
            },
            "PUBLISH" => Reply::Integer(self.db.publish(&args[0], &args[1]) as i64),
            "CONFIG" => config(args),
            // Clients probe this for documentation; there is none to give.
            _ => Reply::Array(Vec::new()),
        }
    }

    /// `SET key value [EX seconds | PX milliseconds]`.
    fn set(&self, args: &[Vec<u8>]) -> Reply {
        let mut ttl = None;
        let mut options = args[2..].iter();
        while let Some(option) = options.next() {
            let to_duration: fn(u64) -> Duration = match option.to_ascii_uppercase().as_slice() {
                b"EX" => Duration::from_secs,
                b"PX" => Duration::from_millis,
                _ => return Reply::err("syntax error"),
            };
            if ttl.is_some() {
                return Reply::err("syntax error");
            }
            let Some(amount) = options.next() else {
                return Reply::err("syntax error");
            };
            match parse_int(amount) {
                Some(n) if n > 0 => ttl = Some(to_duration(n as u64)),
                Some(_) => return Reply::err("invalid expire time in 'set' command"),
                None => return Reply::err("value is not an integer or out of range"),
            }
        }
        match self.db.set(&args[0], args[1].clone(), ttl) {
            Ok(()) => Reply::Simple("OK"),
            Err(e) => write_error(e),
        }
    }

    fn subscribe(&mut self, channels: &[Vec<u8>], out: &mut Vec<u8>) {
        if channels.is_empty() {
            Reply::err("wrong number of arguments for 'subscribe' command").write_to(out);
            return;
        }
        for channel in channels {
            if !self.subscriptions.contains(channel) {
                self.db.subscribe(channel, &self.inbox);
                self.subscriptions.push(channel.clone());
            }
            self.confirm("subscribe", Reply::Bulk(channel.clone()), out);
        }
    }

    fn unsubscribe(&mut self, channels: &[Vec<u8>], out: &mut Vec<u8>) {
        let leaving = if channels.is_empty() {
            self.subscriptions.clone()
        } else {
            channels.to_vec()
        };
        if leaving.is_empty() {
            self.confirm("unsubscribe", Reply::Nil, out);
        }
        for channel in leaving {
            self.db.unsubscribe(&channel, self.inbox.connection);
            self.subscriptions.retain(|c| *c != channel);
            self.confirm("unsubscribe", Reply::Bulk(channel), out);
        }
    }

    fn confirm(&self, kind: &str, channel: Reply, out: &mut Vec<u8>) {
        Reply::Array(vec![
            Reply::Bulk(kind.as_bytes().to_vec()),
            channel,
            Reply::Integer(self.subscriptions.len() as i64),
        ])
        .write_to(out);
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        for channel in &self.subscriptions {
            self.db.unsubscribe(channel, self.inbox.connection);
        }
    }
}

/// `CONFIG GET name`: benchmark tools ask for a couple of settings.
fn config(args: &[Vec<u8>]) -> Reply {
    if !args[0].eq_ignore_ascii_case(b"GET") || args.len() != 2 {
        return Reply::err("only CONFIG GET <name> is supported");
    }
    let value: &[u8] = match args[1].to_ascii_lowercase().as_slice() {
        b"save" => b"",
        b"appendonly" => b"no",
        _ => return Reply::Array(Vec::new()),
    };
    Reply::Array(vec![
        Reply::Bulk(args[1].clone()),
        Reply::Bulk(value.to_vec()),
    ])
}

fn parse_int(bytes: &[u8]) -> Option<i64> {
    std::str::from_utf8(bytes).ok()?.parse().ok()
}

fn write_error(e: WriteError) -> Reply {
    match e {
        WriteError::Full => Reply::Error("OOM command not allowed: the store is full".into()),
        WriteError::NotAnInteger => Reply::err("value is not an integer or out of range"),
        WriteError::Overflow => Reply::err("increment or decrement would overflow"),
    }
}
