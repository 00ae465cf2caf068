//! The pump: the one task that moves packets. It delivers every event due
//! by the current virtual time, in (time, send order) order, then sleeps on
//! the runtime's paused clock until the next one. When every task is
//! idle, the clock jumps straight to that sleep's deadline: virtual time
//! goes from event to event without waiting. An event scheduled earlier
//! than the pump's sleep wakes it (`World::schedule`), and it sleeps again
//! with the new deadline.

use crate::world::{Event, SimHandle, World};
use rt_time::Sleep;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

pub(crate) struct Pump {
    sim: Arc<SimHandle>,
    sleep: Pin<Box<Sleep>>,
}

impl Pump {
    pub(crate) fn new(sim: Arc<SimHandle>) -> Pump {
        Pump {
            sim,
            sleep: Box::pin(rt_time::sleep(Duration::ZERO)),
        }
    }
}

impl Future for Pump {
    type Output = ();

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        loop {
            let next = self.sim.with(|w| {
                while let Some(event) = w.pop_due() {
                    w.deliver(event);
                }
                w.next_due(cx.waker()).map(|at| w.instant_at(at))
            });
            let Some(at) = next else {
                return Poll::Pending;
            };
            if self.sleep.deadline() != at {
                self.sleep.as_mut().reset(at);
            }
            if self.sleep.as_mut().poll(cx).is_pending() {
                return Poll::Pending;
            }
        }
    }
}

impl World {
    /// Hands `event` to the model it belongs to.
    pub(crate) fn deliver(&mut self, event: Event) {
        match event {
            Event::Tcp {
                conn,
                from_end,
                seq,
                packet,
            } => self.tcp_arrive(conn, from_end, seq, packet),
            Event::Datagram { from, to, data } => self.udp_arrive(from, to, data),
        }
    }
}
