"use client";

// Shown instead of the dashboard when the session could not be checked (the database did not
// answer). It must not look like being signed out: the moderator keeps the session and retries.
export function SessionUnavailable() {
  return (
    <div className="state state-error" role="alert" aria-labelledby="unavailable-heading">
      <h1 id="unavailable-heading">The dashboard could not be loaded</h1>
      <p>
        The database did not answer, so your sign-in could not be checked. You are still signed in. Try again in a
        moment.
      </p>
      <button type="button" className="button" onClick={() => window.location.reload()}>
        Retry
      </button>
    </div>
  );
}
