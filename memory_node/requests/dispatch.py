"""One way in for ~/ask and ~/plan: parse the utterance into a typed request, ground it, then answer or plan.

``answer_question`` and ``plan_request`` both go through ``understand`` (``language.parse`` with the people
memory knows) and ``route``; what differs is only what they give back. A command sent to ~/ask and a
question sent to ~/plan get a clear reply saying which service to use (and, for a question, its answer);
a "find my keys" sent to ~/ask is answered with where the keys are. No reply is ever empty: when nothing
could be done, ``success`` is false and ``error`` says what was not understood.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from dataclasses import replace
from datetime import datetime, timezone

from ..core.limits import check_time_ns
from ..core.models import Answer, InvalidInput, PlanResult
from ..core.store import MemoryStore
from ..core.text import clean_text, singular
from ..core.wordnet import default_wordnet
from ..language.conversation import Conversation
from ..language.followup import follow_up
from ..language.lexicon import ROOM_WORDS
from ..language.grounding import Grounder
from ..language.names import GENERIC_NOUNS, PACKAGING, default_names
from ..language.normalise import normalise, without_repairs
from ..language.parser import NOT_TO_DO_NOTE, ParserUnavailable, parse
from ..language.dialects import standard_words
from ..language.task_mood import CALLED_OFF_NOTE, MOOD_NOTES
from ..language.reading_policy import ASK_BACK_BELOW as READING_ASK_BELOW, OFFER_BELOW
from ..language.request import CARRYING_INTENTS, COMMAND_INTENTS, QUESTION_INTENTS, Intent, Kind, ObjectRef, Request
from ..language.resolve import resolve_rooms, rooms_said
from ..answering import entities as ask_entities, habits as habits_ask, placement as preferences, questions as ask, when as ask_time
from ..answering.context import Context, Reply
from ..answering.questions import memory_now, said_moment
from ..planning.planner import SUPPORTED_INSTRUCTIONS, PlanningError, new_builder
from ..planning.skills import SkillLibrary
from ..world.state import WorldState

log = logging.getLogger(__name__)

ASK_HANDLERS: dict[Intent, Callable[[Context], Answer]] = {
    Intent.where: ask.where,
    Intent.what_room: ask.what_room,
    Intent.contents: ask.contents,
    Intent.exists: ask.exists,
    Intent.state: ask.is_state,
    Intent.usable: ask_entities.usable,
    Intent.attribute: ask_entities.attribute,
    Intent.count: ask_entities.how_many,
    Intent.which: ask_entities.which,
    Intent.when_seen: ask_time.when_seen,
    Intent.when_did: ask_time.when_did,
    Intent.around: ask_time.around,
    Intent.robot_did: ask.what_did_you_do,
    Intent.person_did: ask_time.what_did_i_do,
    Intent.happened_to: ask.what_happened,
    Intent.goes_where: preferences.goes_where,
    Intent.habit: habits_ask.habit,
    Intent.find: ask.where,  # "find my keys" asked as a question: where they are
}
SUPPORTED_QUESTIONS = ("where is <object> (where did I leave / have you seen it)", "is there any <object> [in ...]",
                       "what is in/on/under/next to <object>", "what room is <object> in",
                       "is <object> open/closed/locked/on...", "is <object> usable / can it be opened",
                       "what colour is <object>", "how many <objects> [in ...]", "which <object> is ...",
                       "when did you first/last see <object>", "when did I/you <verb> <object>",
                       "what happened after/before <event>", "what did you / I do", "where does <object> go",
                       "how does <person> usually ...")


# a task asked as a question of method, over ~/plan: "how would you get the jar down from the shelf?"
_HOW_WOULD_YOU = re.compile(r"^\s*(?:(?:so|and|ok|okay|robot),?\s+)?how\s+(?:would|could|can|will|do|might|should)"
                            r"\s+you\s+(?:go\s+about\s+|manage\s+to\s+)?(.+?)[\s?.!]*$", re.I | re.S)
# "could you ...?", "do you think you can ...?", "are you able to ...?": whether the robot can do a task, which
# over ~/plan asks for it (the reader, not these words, says which task)
_ASKS_ABILITY = re.compile(r"^\W*(?:(?:so|and|ok|okay|hey|robot|please)\W+)*(?:(?:do|did)\s+you\s+think\s+)?"
                           r"(?:(?:can|could|would|will)\s+you|you\s+(?:can|could)|are\s+you\s+able\s+to|"
                           r"would\s+you\s+(?:mind|be\s+able\s+to))\b", re.I)
SURE_TASK = 0.9  # the reader's probability of a task above which an ability question over ~/plan is that task
# "yes" to "do you mean the washing machine?" (``Context.is_it``)
_AFFIRMATION = re.compile(r"^\s*(?:(?:yes|yeah|yea|yep|yup|sure|correct|right|exactly|indeed|ok|okay|please|"
                          r"that(?:'s| is)? (?:it|the one|right|one)|that one|do it|go ahead|please do)\b[\s,.!]*)+"
                          r"(?:(?:please|thanks|thank you|that one|the one|i do|i did)\b[\s,.!]*)*$", re.I)


def known_people(store: MemoryStore) -> frozenset[str]:
    """Names of the people memory knows (for the parser, which reads lower-case names as verbs)."""
    people = store.entities(label="person", include_absent=True)
    return frozenset(n for e in people for n in (e.name, e.id) if n)


def understand(store: MemoryStore, text: str, prefer: Kind | None = None) -> Request:
    """The request ``text`` makes; ``prefer`` is what the service expects when the text holds both a question
    and a command."""
    return parse(text, names=known_people(store), prefer=prefer)


def answer_question(store: MemoryStore, question: str, as_of_ns: int | None = None, speaker: str = "",
                    conversation: Conversation | None = None, request: Request | None = None) -> Answer:
    """Answer from memory as it stood at ``as_of_ns`` (now when None), for ``speaker`` ("" = whoever spoke
    to the robot last: "my mug" is theirs). ``conversation`` keeps what each speaker referred to ("it").

    The question and speaker pass memory's limits and are cleaned (core/limits.py) before anything reads
    them, and the reply is cleaned too: a name stored before the limits may still hold a bidi override."""
    try:
        question = store.limits.text(question or "", "question", "max_text_length")
        speaker = store.limits.text(speaker or "", "speaker", "max_name_chars").strip()
        check_time_ns(as_of_ns, "as_of")
    except InvalidInput as e:
        return Answer(success=False, answer=f"I cannot take that question: {e}.", error=str(e))
    before = _before_memory(store, as_of_ns)
    if before is not None:
        return before
    answer = _answer_question(store, question, as_of_ns, speaker, conversation, request)
    answer.answer, answer.error = clean_text(answer.answer), clean_text(answer.error)
    return answer


# questions answered as of a time said with them, in the past tense ("was", "were", "did ... have")
_AS_OF_INTENTS = frozenset({Intent.exists, Intent.contents, Intent.state, Intent.count, Intent.which,
                            Intent.what_room, Intent.usable})
_PAST_TENSE = re.compile(r"\b(?:was|were|wasn't|weren't|had|did|didn't)\b", re.I)


def _said_time(store: MemoryStore, req: Request, as_of_ns: int | None) -> tuple[int, int] | None:
    """The moment a past-tense question names by the clock or the day ("at nine", "this morning", "ten minutes
    ago") and memory's now, for the questions whose answer is what held then; None for the rest (``where`` reads
    its own time)."""
    if req.time is None or req.intent not in _AS_OF_INTENTS or not _PAST_TENSE.search(req.text[:500]):
        return None
    now = memory_now(store, as_of_ns)
    then = said_moment(now, req.time)
    return (then, now) if then is not None and then < now else None


def _said_as(then: int, now: int) -> str:
    """"09:00", "21:00 yesterday", "2026-11-28 09:00": the moment an answer holds for, in local time."""
    a, b = (datetime.fromtimestamp(t / 1e9, timezone.utc).astimezone() for t in (then, now))
    days = (b.date() - a.date()).days
    return f"{a:%H:%M}" if days == 0 else f"{a:%H:%M} yesterday" if days == 1 else f"{a:%Y-%m-%d %H:%M}"


def _before_memory(store: MemoryStore, as_of_ns: int | None) -> Answer | None:
    """A question about a time before memory's first record: memory knew nothing then (not "now")."""
    if as_of_ns is None:
        return None
    first = store.first_stamp_ns()
    if first is not None and as_of_ns >= first:
        return None
    start = ("I hold no records yet" if first is None else
             f"my first record is from {datetime.fromtimestamp(first / 1e9, timezone.utc):%Y-%m-%d %H:%M:%S} UTC")
    return Answer(success=True, confidence=1.0,
                  answer=f"I knew nothing yet at that time: {start}.")


def _answer_question(store: MemoryStore, question: str, as_of_ns: int | None, speaker: str,
                     conversation: Conversation | None, request: Request | None) -> Answer:
    if not question or not question.strip():
        return Answer(success=False, answer="I did not hear a question.", error="empty question")
    try:
        req = request or understand(store, question, Kind.question)
    except ParserUnavailable as e:
        return Answer(success=False, answer="I cannot read requests right now.", error=str(e))
    world = WorldState.from_store(store, as_of_ns=as_of_ns, speaker=speaker)
    ctx = _context(store, world, req, speaker, conversation)
    if request is None:
        done = _follow_up(ctx, conversation)
        if done.is_command and req.is_question:
            ctx.request = done = req  # "and the phone?" over ~/ask after a fetch: a question about the phone
        req = done
    if req.is_command and req.intent is not Intent.find:
        return Answer(success=False, answer=f"That is a request to do something ({req.intent.value}), not a "
                      "question: send it to the plan service (~/plan).",
                      error=f"'{question.strip()}' is an action request ({req.intent.value}); use ~/plan")
    said = _said_time(store, ctx.request, as_of_ns)
    if said is not None:
        # "was the mug in the kitchen this morning?", "was the fridge open at nine?": what memory knew then
        past = WorldState.from_store(store, as_of_ns=said[0], speaker=speaker)
        ctx = replace(ctx, world=past, grounder=Grounder(store, past, speaker=speaker, conversation=conversation))
    answer = _answer(ctx)
    if said is not None and answer.success:
        answer.answer = f"As of {_said_as(*said)}: {answer.answer}"
    if answer.success and answer.confidence > 0.0 and (_rival_question(ctx.request) or _cue_against(ctx.request)):
        answer = _read_in_doubt(answer, ctx.request)
    _remember(ctx, conversation)
    return _never_empty(answer, req)


# what a question was read as, said back when the reading is in doubt ({0}: the thing, {1}: the state or property)
_READ_AS = {Intent.where: "where {0} is", Intent.what_room: "which room {0} is in", Intent.exists: "whether there is {0}",
            Intent.state: "whether {0} is {1}", Intent.usable: "whether {0} is {1}", Intent.attribute: "what {1} {0} is",
            Intent.count: "how many {0} there are", Intent.which: "which {0} you mean", Intent.contents: "what is {1} {0}",
            Intent.when_seen: "when I saw {0}", Intent.goes_where: "where {0} goes", Intent.happened_to:
            "what happened to {0}"}


def _rival_question(req: Request) -> bool:
    """Whether the question read is in doubt against another question: its reading below ``ASK_BACK_BELOW`` and
    another question reading at least as likely as not ("Of what hue is the magazine?" read as whether there is a
    magazine, the colour question beside it). A doubt against a command only is settled by the service asked
    (~/ask answers questions); a doubt with no rival named leaves nothing better to offer."""
    if req.confidence >= READING_ASK_BELOW or _WH_FITS.get(req.intent, _NEVER).search(req.text[:500]):
        return False  # the question word says what the reading read ("where was X when you first saw it?")
    return any(a.intent in QUESTION_INTENTS and a.intent is not req.intent and a.confidence >= READING_ASK_BELOW
               for a in req.alternatives)


def _cue_against(req: Request) -> bool:
    """Whether the question says in so many words what it asks, and the reading is another question: "how many"
    read as a list of them ("kitchen have how many books?" answered "Yes: ..."), "what colour" read as where the
    thing is. The reading is answered, but as one to confirm, never as a fact."""
    if req.intent not in QUESTION_INTENTS:
        return False
    return any(intent is not req.intent and cue.search(req.text[:500]) for intent, cue in _SAID_CUES.items())


_NEVER = re.compile(r"(?!)")
# the question words that ask what an intent answers: a reading they name is not in doubt against another question
_WH_FITS = {Intent.where: re.compile(r"\bwhere\b|\bwhereabouts\b|\bwhich\s+(?:spot|place|part|area|shelf|surface)\b", re.I),
            Intent.what_room: re.compile(r"\b(?:which|what)\s+room\b", re.I),
            Intent.when_seen: re.compile(r"\bwhen\b|\bwhat\s+time\b", re.I),
            Intent.count: re.compile(r"\bhow\s+many\b", re.I),
            Intent.attribute: re.compile(r"\bwhat\s+(?:colou?r|size|shape|material)\b", re.I)}
# the words that say what a question asks, whatever it was read as (``_cue_against``); "how many" is the twin above
_SAID_CUES = {Intent.count: _WH_FITS[Intent.count],
              Intent.attribute: re.compile(r"\b(?:what|which)\s+colou?r\b", re.I)}


def _read_in_doubt(answer: Answer, req: Request) -> Answer:
    """A question whose reading the calibration doubts (``Request.confidence`` below the reading policy's
    ``ASK_BACK_BELOW``: less likely right than wrong) is answered as read, but said as a reading to confirm, not
    as a fact: "I am not sure I understood: if you asked where the magazine is, it is on the bed. Is that what you
    asked?". Its confidence is the answer's times the reading's (a client acting on answers sees the doubt)."""
    thing = req.objects[0].text if req.objects and req.objects[0].text else "it"
    detail = req.state or req.attribute or ("usable" if req.intent is Intent.usable else
                                            req.objects[0].anchor.relation.replace("_", " ")
                                            if req.objects and req.objects[0].anchor else "on")
    said = _READ_AS.get(req.intent, "a question about {0}").format(thing, detail)
    return answer.model_copy(update={
        "answer": f"I am not sure I understood the question. If you asked {said}: {answer.answer.strip()} "
                  "Is that what you asked?",
        "confidence": round(answer.confidence * req.confidence, 3)})


def _follow_up(ctx: Context, conversation: Conversation | None) -> Request:
    """"the blue one" after "which mug do you mean?", "no, the other one" after a wrong pick: the speaker's
    previous request, finished or corrected (``language/followup.py``); otherwise the request as read."""
    if conversation is None:
        return ctx.request
    speaker = ctx.grounder.speaker
    pending = conversation.take_confirmation(speaker)  # answered now, or dropped for a new request
    if pending is not None and _AFFIRMATION.match(ctx.request.text):
        request, phrase, ent_id = pending
        ctx.request = request
        if phrase:
            ctx.confirmed[phrase] = ent_id
        return request
    done = follow_up(ctx.request, conversation.last_request(speaker))
    if done is None:
        return ctx.request
    ctx.request, other = done
    if other:
        ctx.grounder.excluded = set(conversation.last(speaker))
    return ctx.request


def _remember(ctx: Context, conversation: Conversation | None) -> None:
    if conversation is None:
        return
    if ctx.grounded:
        conversation.remember(ctx.grounder.speaker, ctx.grounded)
    if ctx.request.objects and ctx.request.intent is not Intent.unknown:
        conversation.remember_request(ctx.grounder.speaker, ctx.request)


def _answer(ctx: Context) -> Answer:
    req = ctx.request
    handler = ASK_HANDLERS.get(req.intent)
    if handler is None:
        return _not_understood(req)
    try:
        return handler(ctx)
    except Reply as r:
        return r.answer


def _not_understood(req: Request) -> Answer:
    if req.intent is Intent.greeting:
        return Answer(success=True, answer="Hello! Ask me where something is, or ask me to bring it.",
                      confidence=1.0)
    if req.intent is Intent.inform:
        return Answer(success=False, answer="Thanks, but statements reach my memory through the utterance topic "
                      "(user_utterance); here I answer questions.", error="a statement, not a question")
    why = "; ".join(req.notes) or "no question I know"
    supported = "; ".join(SUPPORTED_QUESTIONS)
    return Answer(success=False, answer=f"I did not understand the question '{req.text.strip()}'. I can answer: "
                  f"{supported}.", error=f"unsupported question ({why}); I can answer: {supported}")


def _never_empty(answer: Answer, req: Request) -> Answer:
    if not answer.answer.strip():
        answer.answer = answer.error or f"I have nothing to say about '{req.text.strip()}'."
        if not answer.error and not answer.success:
            answer.error = "empty reply"
    return answer


def plan_request(store: MemoryStore, library: SkillLibrary, instruction: str, robot: str | None = None,
                 as_of_ns: int | None = None, speaker: str = "", conversation: Conversation | None = None,
                 request: Request | None = None) -> PlanResult:
    """Plan ``instruction`` for ``robot`` (the library's robot when None) over memory at ``as_of_ns``, for
    ``speaker`` ("" = whoever spoke to the robot last: "my mug" is theirs). Cleaned and limited like a
    question (see ``answer_question``)."""
    try:
        instruction = store.limits.text(instruction or "", "instruction", "max_text_length")
        speaker = store.limits.text(speaker or "", "speaker", "max_name_chars").strip()
        check_time_ns(as_of_ns, "as_of")
    except InvalidInput as e:
        return PlanResult(success=False, error=str(e))
    result = _plan_request(store, library, instruction, robot, as_of_ns, speaker, conversation, request)
    result.error = clean_text(result.error)
    return result


def _plan_request(store: MemoryStore, library: SkillLibrary, instruction: str, robot: str | None,
                  as_of_ns: int | None, speaker: str, conversation: Conversation | None,
                  request: Request | None) -> PlanResult:
    robot = robot or library.robot
    if robot != library.robot:
        return PlanResult(success=False, error=f"robot {robot!r} does not match skill library {library.robot!r}")
    if not instruction or not instruction.strip():
        return PlanResult(success=False, error="empty instruction")
    try:
        req = request or understand(store, instruction, Kind.command)
    except ParserUnavailable as e:
        return PlanResult(success=False, error=str(e))
    how = _HOW_WOULD_YOU.match(instruction) if request is None else None
    if how is not None:
        # "how would you move the vase to the shelf?" over ~/plan: the task, asked as a question
        asked = understand(store, how.group(1), Kind.command)
        if asked.is_command:
            req = asked.model_copy(update={"text": instruction, "notes": [*asked.notes, "a task asked as 'how would "
                                                                          "you ...?'"]})
    world = WorldState.from_store(store, as_of_ns=as_of_ns, hands=library.hands, speaker=speaker)
    ctx = _context(store, world, req, speaker, conversation)
    req = _follow_up(ctx, conversation) if request is None else req
    if not req.is_command:
        command = _command_alternative(req)
        if command is not None:
            # "do you think you can find my juice?" over ~/plan: the rules read a question, the reader a
            # command; the service says a task is wanted, so the task is offered, not done unasked
            offered = plan_request(store, library, instruction, robot=robot, as_of_ns=as_of_ns, speaker=speaker,
                                   conversation=conversation, request=command)
            if offered.success or "Say yes" in offered.error:
                return offered
        if req.is_question:
            answer = answer_question(store, instruction, as_of_ns=as_of_ns, speaker=speaker,
                                     conversation=conversation, request=req)
            return PlanResult(success=False, error=f"that is a question, not a task (ask it over ~/ask); the "
                              f"answer: {answer.answer}")
        if CALLED_OFF_NOTE in req.notes:
            return PlanResult(success=False, error=f"you called it off ('{instruction.strip()[:200]}'): nothing to "
                              "do; tell me what you want done instead")
        if NOT_TO_DO_NOTE in req.notes:
            return PlanResult(success=False, error=f"you said not to ('{instruction.strip()[:200]}'), so I will "
                              "not do it; tell me what you want done instead")
        why = "; ".join(req.notes) or req.intent.value
        return PlanResult(success=False, error=f"I did not understand '{instruction.strip()}' as a task ({why}). "
                          f"I can plan: {'; '.join(SUPPORTED_INSTRUCTIONS)}")
    ctx.request = req = _bring_to_a_thing(req, world)
    ctx.grounder.for_a_task = True
    builder = new_builder(store, library, ctx, robot)
    try:
        builder.run()
        result = builder.finish()
    except PlanningError as e:
        result = PlanResult(success=False, error=str(e) or "no plan")
    except Reply as r:  # "which mug do you mean?": the answer may finish this request (see _follow_up)
        result = PlanResult(success=False, error=r.answer.answer or r.problem)
    left_out = (_things_left_out(req, world, result, ctx.grounder) + _people_left_out(req, world, result, ctx.grounder.speaker)
                + _rooms_left_out(req, world, result) + _stitched(req)
                if result.success and result.plan is not None else [])
    offer_why = builder.offer_why
    if result.success and result.plan is not None and (_reading_doubted(req) or left_out or offer_why):
        # read in doubt (language/reading_policy.py), or the sentence names a thing memory holds that the plan
        # leaves out ("bring pear, lime" read as the pear alone): say what would be done and wait for a "yes"
        what = result.plan.explanation.rstrip(".") or result.plan.instruction
        also = f" (you also said {', '.join(left_out)})" if left_out else ""
        lead, now = (offer_why, "") if offer_why else _offer_lead(req)
        result = PlanResult(success=False, error=f"{lead} Do you want me to {what}{also}{now}? Say yes and I will.")
        if conversation is not None:
            conversation.expect_confirmation(ctx.grounder.speaker, _confirmed(req), "", "")
    _remember(ctx, conversation)
    return result


# why a task is offered rather than done, when its words say so (language/task_mood.py)
_MOOD_LEADS = {MOOD_NOTES["reminder"]: "I keep no reminders.",
               MOOD_NOTES["later"]: "I keep no schedule, so I cannot do it later by myself.",
               MOOD_NOTES["past"]: "I cannot change what was done."}


def _offer_lead(req: Request) -> tuple[str, str]:
    """The first sentence of an offer, and " now" when the words asked for another time."""
    for note in req.notes:
        for key, lead in _MOOD_LEADS.items():
            if note.startswith(key):
                return lead, " now"
    return "I am not sure I understood.", ""


def _things_left_out(req: Request, world: WorldState, result: PlanResult, grounder: Grounder | None = None
                     ) -> list[str]:
    """Words of the sentence that are the label of a thing memory holds, which the plan that carries things
    neither carries nor uses as a place, a person or a reference: a list the parser read as one thing ("bring
    pear, lime", "the pear and the lime, bring them"). Exact single-word labels only, so what is found is sure;
    and after "with", what ``grounder`` surely grounds ("put the lotion with the teddy on the desk")."""
    if req.intent not in CARRYING_INTENTS or result.plan is None:
        return []
    used = {w for ref in req.objects for w in _words(ref.text) | _anchor_words(ref)}
    if req.destination is not None:  # (and what says which place: "on the plate on the kitchen table")
        used |= _words(req.destination.ref.text) | _anchor_words(req.destination.ref)
    used |= _words(req.recipient)
    used |= {w for ref in req.close_after for w in _words(ref.text)}  # "... then shut the fridge": closed, or said so
    if req.go_after is not None:  # "... then go to the bedroom": gone to last, or said why not
        used |= _words(req.go_after.text)
    ids = {i for step in result.plan.steps for i in step.args}
    used |= {w for i in ids if i in world.entities for w in _words(world.entities[i].label)}
    labels = {e.label.lower() for e in world.entities.values() if e.present and not world.is_room(e.id)
              and not world.is_person(e.id)}
    out: list[str] = []
    said_as = _everyday_names(labels)
    involved = {world.entities[i].label.lower() for i in ids if i in world.entities}
    # words a self-repair took back ("the mug — sorry, the radio") are not left out: they were taken back
    # (and words another variety of English uses for a verb, "range the mug at its place", are that verb)
    words = re.findall(r"[a-z]+", standard_words(without_repairs(req.text or "")).lower())
    # a put onto a place the sentence named may describe a spot, where the thing is, or where the place is by
    # other things ("in the microwave under the sink", "between the knife and the ladle", "from the shelf of the
    # stove"): a thing named right after such words is a landmark. Not when no such place was read (a fetch to
    # the speaker from "... place it on the counter beside the chair" lost the counter: that stays asked)
    spots = _put_at_a_named_place(req, result, world)

    def same_as(i: int) -> bool:  # "on the same bed as the laptop": which place, by another thing on it
        return "as" in words[max(0, i - 3):i] and "same" in words[max(0, i - 6):i]

    # where memory has each thing the plan moves ("pick up the coffee pot on the plate, put it in the microwave":
    # the plate is where it is taken from, said in the part before the task)
    now_on = {world.entities[s].label.lower() for i in ids if i in world.locations
              for s in _supports(world, i) if s in world.entities}

    def said_where(i: int) -> bool:
        # ("a magazine with a carton of milk": what is carried along, not where)
        near = set(words[max(0, i - 3):i]) | ({"between"} & set(words[max(0, i - 6):i]))  # "between A and B"
        if words[i] in now_on and set(words[max(0, i - 3):i]) & _SOURCE_CUES:
            return True  # "off the plate", "from the desk": where it is now, as memory has it (not "the plate and")
        return spots and bool(near & _RELATIVE_CUES or same_as(i)) and "with" not in words[max(0, i - 5):i]

    for i, w in enumerate(words):
        base = w[:-1] if w.endswith("s") and w[:-1] in labels else w
        pair = w + words[i + 1] if i + 1 < len(words) else ""
        if base in labels and pair and (pair in said_as or pair in labels):
            # "the coffee table", "the tv stand": the two words name another thing memory holds, judged as one
            spoken = f"{w} {words[i + 1]}"
            if said_as.get(pair, pair) not in involved and not ({w, words[i + 1]} & used) and spoken not in out \
                    and not said_where(i):
                out.append(spoken)
            continue
        if base in labels and _modifies_next(words, i, labels | set(said_as)) and base not in out:
            continue  # "the TV unit": a word before a noun says which thing, it is none itself
        if base in labels and base not in used and w not in used and base not in out:
            if not said_where(i):
                out.append(base)
            continue
        # "put a mouse with a loo roll on the table", "... with a coffee pot in it": a thing memory holds, named
        # as people name it (its head noun, what it holds, an everyday name, two words glued as labels are)
        if set(words[max(0, i - 3):i]) & _LANDMARK_CUES or same_as(i):
            continue  # "to the left of the laptop", "in the refrigerator", "open the fridge", "on the same bed as
            # the laptop": a place, not a thing
        if pair and (pair in said_as or pair in labels):
            label, span = said_as.get(pair, pair), [w, words[i + 1]]  # the two words name it, not the first alone
        else:
            label, span = said_as.get(singular(w)), [w]
        spoken = " ".join(span)
        if label and not (set(span) & used) and label not in involved and spoken not in out:
            out.append(spoken)
    if grounder is not None:
        things = {w for ref in req.objects for w in _words(ref.text)}
        out += [w for w in _carried_along(words, used | set(out), grounder, ids, things) if w not in out]
    return out


# what comes along with a thing ("put the lotion with the teddy on the desk", "a TV remote with a ball")
_WITH_DETERMINERS = frozenset({"a", "an", "the", "my", "your", "our", "his", "her", "their", "its", "some", "that",
                               "this", "these", "those"})
# matches that name a thing surely (a WordNet synonym, what a bottle holds); not a kind ("batteries" is no pile of
# clothes, though WordNet's "battery" is a kind of collection)
_SURE_HOW = frozenset({"exact", "head noun", "everyday name", "wordnet synonym", "contents"})


# verbs whose "with" says what a thing is done with ("cut a lime with a knife"), not what comes along
# (not words said as often of a thing as of a doing: "the open box", "the clean plate", "the water")
_DONE_WITH = frozenset({"cut", "slice", "chop", "dice", "peel", "wash", "rinse", "scrub", "wipe", "stir", "heat",
                        "cook", "chill", "crack", "pour"})


def _carried_along(words: list[str], used: set[str], grounder: Grounder, involved: set[str],
                   things: set[str]) -> list[str]:
    """Things said after "with" that memory surely holds and the plan does not touch: moving the one thing
    without them is less than was asked. Names the label table does not list are grounded as the grounder
    grounds any phrase (a "teddy" is the teddy bear; "lotion" what the lotion bottle holds)."""
    out: list[str] = []
    wn = default_wordnet()
    for i, w in enumerate(words[:-1]):
        if w != "with":
            continue
        if not set(words[max(0, i - 3):i]) & things:
            continue  # "X with Y": said right after the thing carried ("carry the juice in there ... with the
            # blinds down" says how the room is)
        if wn is not None and any(wn.verb_base(v) in _DONE_WITH for v in words[max(0, i - 4):i]):
            continue  # "cut the lime with a knife, wash it, put it on the bed": what it is done with, not carried
        j = i + 1 + (words[i + 1] in _WITH_DETERMINERS)
        if j >= len(words) or words[j] in used or singular(words[j]) in used or words[j] in GENERIC_NOUNS:
            continue
        span = words[j:j + 1]
        if j + 1 < len(words) and _modifies_next(words, j, set()):
            span = words[j:j + 2]  # "with the tv remote": the remote
        said = " ".join(span)
        try:
            g = grounder.ground(ObjectRef(text=f"the {said}", head=singular(span[-1]), determiner="the",
                                          compound=span[:-1]), "all")
        except Exception:  # noqa: BLE001 - a phrase that cannot be grounded names nothing sure
            continue
        if g.status != "none" and g.how in _SURE_HOW and not {c.entity.id for c in g.candidates} & involved:
            out.append(said)
    return out


def _modifies_next(words: list[str], i: int, names: set[str]) -> bool:
    """``words[i]`` stands right before a noun that names no thing memory holds and no part of one: a noun
    compound whose head is that noun ("TV unit", "TV stand"), so the word says which thing and names none.
    Only a physical noun WordNet lists as a noun alone or as a household thing ("unit", "stand"; not "back",
    "lah", "sir"), and not a part ("the fridge door" is still the fridge)."""
    if i + 1 >= len(words):
        return False
    nxt = words[i + 1]
    if nxt in names or singular(nxt) in names:
        return False
    wn = default_wordnet()
    # a thing's noun, by WordNet's physical senses: not a particle or an address that happens to be a noun
    # ("get me the milk lah", "the radio, sir"), nor a word also said as an adverb ("the tv back")
    return wn is not None and bool(wn.senses(nxt)) and (wn.only_noun(nxt) or wn.household(nxt)) \
        and not wn.is_part(nxt)


# words before a thing's name that say where something is by it, never where a thing goes
_RELATIVE_CUES = frozenset({"of", "near", "beside", "behind", "by", "from", "under", "underneath", "beneath",
                            "between", "above", "below", "next", "front", "left", "right", "off", "out", "past"})


def _put_at_a_named_place(req: Request, result: PlanResult, world: WorldState) -> bool:
    """The plan sets the thing down on or in a place the request named, not a room and not a person."""
    dest = req.destination
    if dest is None or result.plan is None or req.intent not in (Intent.put, Intent.put_away, Intent.put_back):
        return False
    head = (dest.ref.head or "").lower()
    if not head or head in {"me", "you", "here", "there"}:
        return False
    onto = [world.entities[s.args[1]].label.lower() for s in result.plan.steps
            if s.skill == "place" and len(s.args) > 1 and s.args[1] in world.entities]
    if head in ROOM_WORDS:
        # a word that names a room to some and a fixture to others ("in the toilet under the sink"): a named
        # place only when the plan sets the thing in the fixture of that name, not somewhere in a room
        return any(head in _words(label) for label in onto)
    return bool(onto)


# words before where a thing is now ("the coffee pot on the plate", "off the desk")
_SOURCE_CUES = frozenset({"on", "in", "from", "off", "of", "inside", "at", "out", "atop"})


def _supports(world: WorldState, obj: str) -> list[str]:
    """What memory has ``obj`` on or in, outward, up to its furniture (rooms left out)."""
    return [c for c in world.chain(obj) if not world.is_room(c)][:3]


# words before a thing's name that make it a place or a landmark rather than something to carry
_LANDMARK_CUES = frozenset({"of", "to", "near", "beside", "behind", "by", "from", "under", "between", "in", "on", "at",
                            "into", "onto", "inside", "above", "below", "next", "front", "off", "out", "open", "close",
                            "shut", "same", "than", "where", "toward", "towards"})


def _everyday_names(labels: set[str]) -> dict[str, str]:
    """What people call the things memory holds, each mapped to its label: a label's head noun ("remote
    control" -> control is not, "coffee pot" -> coffeepot is, glued), what a container label holds
    ("lotionbottle" -> lotion) and the everyday names the name table gives (loo roll -> toiletpaper)."""
    names = default_names()
    out: dict[str, str] = {}
    for label in labels:
        lw = names.label_words(label)
        if len(lw) > 1:
            out.setdefault("".join(lw), label)
        for p in PACKAGING:
            if label.endswith(p) and len(label) > len(p) + 2:
                out.setdefault(label[:-len(p)], label)
    for said, meant in names.names.items():
        hit = next((m for m in meant if m in labels), None)
        if hit and " " not in said and said not in GENERIC_NOUNS:
            out.setdefault(said, hit)
        elif hit and said.count(" ") == 1:  # "loo roll": looked up glued, as two words of the sentence are
            out.setdefault(said.replace(" ", ""), hit)
    return {k: v for k, v in out.items() if len(k) > 2 and k not in GENERIC_NOUNS}


_FUNCTION_WORDS = frozenset({"the", "a", "an", "my", "your", "our", "his", "her", "their", "its", "this", "that",
                            "these", "those", "some", "any", "of"})


# words between or inside a thing's phrase that name nothing (politeness, pronouns, auxiliaries, fillers)
_NOT_NAMES = frozenset({"and", "or", "uh", "um", "er", "please", "thanks", "too", "now", "just", "then", "so", "also",
                        "i", "you", "we", "he", "she", "it", "they", "me", "can", "could", "will", "would", "is", "are"})


def _stitched(req: Request) -> list[str]:
    """Words said between the words of a thing's phrase the reading joined from apart ("grab the radio and uh the
    loo roll too" read as one "radio roll"): the thing acted on may not be the one meant, and the words between
    may name another."""
    if req.intent not in CARRYING_INTENTS:
        return []
    said = re.findall(r"[a-z']+", normalise(req.text or "").lower())[:200]
    out: list[str] = []
    for ref in req.objects:
        words = [w for w in re.findall(r"[a-z']+", (ref.text or "").lower()) if w not in _FUNCTION_WORDS | _NOT_NAMES]
        if len(words) < 2 or len(words) > 6:
            continue
        starts = [i for i, w in enumerate(said) if w == words[0]]
        if not starts or any(said[i:i + len(words)] == words for i in starts):
            continue  # said as one phrase (or not found as said: a phrase the parser built, nothing to compare)
        i = starts[0]
        end = next((j for j in range(i + 1, min(len(said), i + 12)) if said[j] == words[-1]), None)
        if end is None or not set(words) <= set(said[i:end + 1]):
            continue  # a phrase the parser built from other words ("something to drink" for "something I can drink")
        gap = [w for w in said[i + 1:end] if w not in words and w not in _FUNCTION_WORDS | _NOT_NAMES]
        if gap:
            out.append(" ".join(gap))
    return out


def _rooms_left_out(req: Request, world: WorldState, result: PlanResult) -> list[str]:
    """Rooms memory holds, said in the sentence, that a plan carrying things neither goes to nor takes anything
    from: "carry the juice until the kitchen" read as a fetch for the speaker. A room said and not used is a
    place the reading lost; carrying the thing elsewhere is a wrong action, one question back is cheap."""
    if req.intent not in CARRYING_INTENTS or result.plan is None:
        return []
    read = set()  # the words the reading used: a room in them was read (a filter, a source, a destination)
    for ref in [*req.objects, *([req.destination.ref] if req.destination is not None else [])]:
        read |= _words(ref.text) | _words(ref.room) | _anchor_words(ref)
    involved = {i for step in result.plan.steps for i in step.args}
    visited = {world.room_of(i) for i in involved if i in world.entities}
    return [r.name or r.label for r in rooms_said(without_repairs(req.text or ""), world.entities.values())
            if r.id not in involved and r.id not in visited
            and not rooms_said(" ".join(sorted(read)), [r]) and not (_words(r.name or "") & read)]


def _people_left_out(req: Request, world: WorldState, result: PlanResult, speaker: str) -> list[str]:
    """Names of people memory knows, said in the sentence, whom the plan neither goes to nor hands to and the
    reading does not use as an owner or a reference: "take the pear two Ben" read as a fetch for the speaker,
    "run the pear over to Ben" read as a walk to the pear. Handing a thing to the wrong person is a wrong
    action; one question back is cheap."""
    if result.plan is None:
        return []
    involved = {i for step in result.plan.steps for i in step.args}
    used = {(speaker or "").lower()}  # a recipient read but not handed to is left out too
    for ref in [*req.objects, *([req.destination.ref] if req.destination is not None else [])]:
        used |= _words(ref.text) | _words(ref.owner or "") | _anchor_words(ref)
    names = {p.name.lower(): p.id for p in world.persons() if p.name}
    out: list[str] = []
    words = re.findall(r"[a-z']+", (req.text or "").lower())
    for i, w in enumerate(words):
        if w in names and names[w] not in involved and w not in used and w not in out \
                and not _relays(words, i):
            out.append(w)
    return out


# "Anna said I should ask you ...", "Ben told me you'd fetch me the mug": the person who asked for the request,
# whom it passes on, not someone it is for
_REPORTING = frozenset({"said", "says", "told", "tells", "asked", "asks", "reckons", "thinks", "mentioned",
                        "suggested", "reminded", "wanted", "wants", "sent"})
_THIRD_PERSON = frozenset({"her", "him", "them", "she", "he", "they", "hers", "his"})


def _relays(words: list[str], i: int) -> bool:
    """Whether the name at ``words[i]`` is the one who passed the request on: a reporting verb right after it
    ("Anna said", "Anna wants me to") and no "her" / "him" later that could make them the one it is for."""
    after = words[i + 1:i + 3]
    if not after or after[0] not in _REPORTING:
        return False
    if after[0] in ("wants", "wanted", "sent") and (len(after) < 2 or after[1] not in ("me", "us")):
        return False  # "Anna wants the juice": she is who it is for
    return not (set(words[i + 1:]) & _THIRD_PERSON)


def _anchor_words(ref: ObjectRef) -> set[str]:
    """The words of the places a phrase is said to be at, outward ("the mug on the tray on the table")."""
    out: set[str] = set()
    a = ref.anchor
    while a is not None:
        out |= _words(a.ref.text) | {a.ref.head}
        a = a.ref.anchor
    return out


def _words(text: str) -> set[str]:
    words = set(re.findall(r"[a-z]+", (text or "").lower()))
    return words | {w[:-1] for w in words if w.endswith("s")}


def _command_alternative(req: Request) -> Request | None:
    """The reader's most likely command reading of a request the rules read otherwise, or None. In doubt (so
    that it is offered, not done), unless the words ask the robot whether it can do something ("do you think
    you can find my juice?", "could you possibly grab the mug?") and the reader is sure which task: over
    ~/plan that is how people ask for one."""
    for alt in req.alternatives:
        if alt.intent in COMMAND_INTENTS and alt.objects:
            sure = alt.confidence >= SURE_TASK and _ASKS_ABILITY.match(req.text) is not None
            return req.model_copy(update={"kind": Kind.command, "intent": alt.intent, "objects": alt.objects,
                                          "confidence": 1.0 if sure else min(alt.confidence, READING_ASK_BELOW / 2),
                                          "alternatives": [], "destination": None})
    return None


# Acting on a wrong reading costs more than answering one: on the writers' held-aside lines the combined reading
# is right 67 % of the time at confidence 0.5-0.7 and 89 % at 0.7-0.8 (``python -m memory_node.bench.reader_eval``),
# so a plan read below 0.7 is offered ("Do you want me to ...?"), not done; an answer is given from 0.5
PLAN_ASK_BELOW = max(READING_ASK_BELOW, OFFER_BELOW)


def _reading_doubted(req: Request) -> bool:
    """The task read is less likely right than acting on it is worth (1.0 when no model measured it)."""
    return req.confidence < PLAN_ASK_BELOW


def _confirmed(req: Request) -> Request:
    return req.model_copy(update={"confidence": 1.0})


def _bring_to_a_thing(req: Request, world: WorldState) -> Request:
    """"bring the lime to the bed", "take the book to the desk": brought to a thing that is neither a person
    nor a room is put there (a handover needs someone to hand it to)."""
    dest = req.destination
    if req.intent is not Intent.fetch or req.recipient or dest is None or dest.relation != "at":
        return req
    said = dest.ref.words()
    people = {n.lower() for e in world.entities.values() if world.is_person(e.id) for n in (e.name, e.id) if n}
    if said.lower() in people or said.lower() in ("me", "us") or resolve_rooms(said, world.entities.values()):
        return req
    return req.model_copy(update={"intent": Intent.put, "notes": [*req.notes, "brought to a thing: put there"]})


def _context(store: MemoryStore, world: WorldState, req: Request, speaker: str,
             conversation: Conversation | None) -> Context:
    grounder = Grounder(store, world, speaker=speaker, conversation=conversation)
    return Context(store=store, world=world, grounder=grounder, request=req)


__all__ = ["Kind", "answer_question", "plan_request", "understand"]
