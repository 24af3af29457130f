"use client";

import { Input } from "@/components/ui/input";
import type { AwaitedEvent, ExternalEvent, JourneyStep, JourneyWait } from "@/lib/campaigns/journey";
import { NativeSelect } from "../native-select";
import type { JourneyEnv } from "./env";
import { DurationField, Row } from "./fields";

type WaitStep = Extract<JourneyStep, { type: "wait" }>;
type WaitForEventStep = Extract<JourneyStep, { type: "wait_for_event" }>;

const WAIT_DEFAULTS: Record<JourneyWait["kind"], JourneyWait> = {
  duration: { kind: "duration", seconds: 3600 },
  time_of_day: { kind: "time_of_day", time: "10:00", timeZone: null },
  date_attribute: { kind: "date_attribute", attribute: "", offsetSeconds: 0 },
};

/** A wait: a duration, until a time of day, or until a date attribute ± an offset. */
export function WaitStepEditor({ step, env, onChange }: { step: WaitStep; env: JourneyEnv; onChange: (step: WaitStep) => void }) {
  const id = `step-${step.id}`;
  const wait = step.wait;
  const set = (next: JourneyWait) => onChange({ ...step, wait: next });
  return (
    <div className="grid gap-4">
      <Row label="Wait" htmlFor={`${id}-kind`}>
        <NativeSelect id={`${id}-kind`} value={wait.kind} onChange={(event) => set(WAIT_DEFAULTS[event.target.value as JourneyWait["kind"]])}>
          <option value="duration">For a while</option>
          <option value="time_of_day">Until a time of day</option>
          <option value="date_attribute">Until a date on the contact</option>
        </NativeSelect>
      </Row>
      {wait.kind === "duration" && <DurationField label="Wait for" seconds={wait.seconds} onChange={(seconds) => set({ ...wait, seconds })} />}
      {wait.kind === "time_of_day" && (
        <div className="grid gap-4 @md:grid-cols-2">
          <Row label="Time (24-hour)" htmlFor={`${id}-time`}>
            <Input id={`${id}-time`} type="time" value={wait.time} onChange={(event) => set({ ...wait, time: event.target.value })} />
          </Row>
          <Row label="Time zone" htmlFor={`${id}-tz`} hint="Empty: the contact's own time zone.">
            <Input id={`${id}-tz`} placeholder="e.g. Europe/Lisbon" value={wait.timeZone ?? ""} onChange={(event) => set({ ...wait, timeZone: event.target.value.trim() || null })} />
          </Row>
        </div>
      )}
      {wait.kind === "date_attribute" && (
        <div className="grid gap-4 @md:grid-cols-2">
          <Row label="Date attribute" htmlFor={`${id}-attr`}>
            <NativeSelect id={`${id}-attr`} value={wait.attribute} onChange={(event) => set({ ...wait, attribute: event.target.value })}>
              <option value="">Choose an attribute…</option>
              {[...env.attributes.fromTrigger, ...env.attributes.stored].map((a) => (
                <option key={a} value={a}>
                  {a}
                </option>
              ))}
            </NativeSelect>
          </Row>
          <DurationField label="Offset (negative: before)" seconds={wait.offsetSeconds} allowNegative onChange={(offsetSeconds) => set({ ...wait, offsetSeconds })} />
        </div>
      )}
    </div>
  );
}

const EVENT_DEFAULTS: Record<AwaitedEvent["kind"], AwaitedEvent> = {
  delivered: { kind: "delivered" },
  read: { kind: "read" },
  replied: { kind: "replied" },
  button: { kind: "button", payload: null },
  event: { kind: "event", name: "" },
  campaign: { kind: "campaign", campaignId: "" },
};

/** An external event (an API event name, or another campaign's trigger), for waits, exits and goals. */
export function ExternalEventFields({ id, event, env, onChange }: { id: string; event: ExternalEvent; env: JourneyEnv; onChange: (event: ExternalEvent) => void }) {
  if (event.kind === "event") {
    return (
      <Row label="Event name" htmlFor={`${id}-event-name`} hint="As sent to POST /api/v1/events.">
        <Input id={`${id}-event-name`} placeholder="e.g. order_placed" value={event.name} onChange={(e) => onChange({ kind: "event", name: e.target.value })} />
      </Row>
    );
  }
  return (
    <Row label="Campaign" htmlFor={`${id}-campaign`}>
      <NativeSelect id={`${id}-campaign`} value={event.campaignId} onChange={(e) => onChange({ kind: "campaign", campaignId: e.target.value })}>
        <option value="">Choose a campaign…</option>
        {env.campaigns
          .filter((c) => c.id !== env.campaignId)
          .map((c) => (
            <option key={c.id} value={c.id}>
              {c.name}
            </option>
          ))}
      </NativeSelect>
    </Row>
  );
}

/** Wait for an event: what to wait for, and how long before the timeout way is taken. */
export function WaitForEventStepEditor({ step, env, onChange }: { step: WaitForEventStep; env: JourneyEnv; onChange: (step: WaitForEventStep) => void }) {
  const id = `step-${step.id}`;
  const event = step.event;
  return (
    <div className="grid gap-4">
      <Row label="Wait for" htmlFor={`${id}-event`}>
        <NativeSelect id={`${id}-event`} value={event.kind} onChange={(e) => onChange({ ...step, event: EVENT_DEFAULTS[e.target.value as AwaitedEvent["kind"]] })}>
          <option value="delivered">The last message is delivered</option>
          <option value="read">The last message is read</option>
          <option value="replied">The contact replies</option>
          <option value="button">The contact taps a button</option>
          <option value="event">An event (API)</option>
          <option value="campaign">A trigger of another campaign</option>
        </NativeSelect>
      </Row>
      {event.kind === "button" && (
        <Row label="Button payload" htmlFor={`${id}-payload`} hint="Empty: any button.">
          <Input id={`${id}-payload`} value={event.payload ?? ""} onChange={(e) => onChange({ ...step, event: { kind: "button", payload: e.target.value || null } })} />
        </Row>
      )}
      {(event.kind === "event" || event.kind === "campaign") && <ExternalEventFields id={id} event={event} env={env} onChange={(next) => onChange({ ...step, event: next })} />}
      <DurationField label="Timeout after" seconds={step.timeoutSeconds} onChange={(timeoutSeconds) => onChange({ ...step, timeoutSeconds })} />
    </div>
  );
}
