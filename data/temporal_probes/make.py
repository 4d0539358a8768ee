"""Build temporal_probes_v1.json: dated journals and questions that name a time (see README.md).

Deterministic (no randomness): each persona repeats a few activities on fixed dates, in different words each time;
each probe names one occurrence by the time it happened, or by its order (first, last), and has exactly one right entry.
Run from anywhere: `python data/temporal_probes/make.py` rewrites the JSON beside this file.
"""
import json
from datetime import datetime, timedelta, timezone
from pathlib import Path
from zoneinfo import ZoneInfo

# persona: (id, name, zone, the moment the final questions are asked, activities)
# activity: (key, how a question says it, how a 'most recent' question names it, [(local datetime, text), ...] oldest first)
PERSONAS = [
 ('t01', 'Lena', 'Europe/Berlin', '2026-12-05T10:00', [
   ('climb', 'go climbing', 'climbing session', [
     ('2025-03-15T17:00', 'Climbing at the bouldering hall with Tom for the very first time; I could barely hold the holds.'),
     ('2025-12-25T15:00', 'Christmas afternoon: we escaped the family and went climbing at the quiet hall, only three of us on the walls.'),
     ('2026-06-13T16:00', 'Outdoor climbing on the limestone crag above the river, warm rock and a long belay chat with Tom.'),
     ('2026-10-10T14:00', 'Climbing again, at the new wall in town; I finally sent the overhanging blue route.'),
     ('2026-11-21T11:00', 'Saturday climbing session at the hall, short and sweaty, my fingers are sore.')]),
   ('sara', 'see Sara', 'time with Sara', [
     ('2025-05-03T11:00', 'Brunch with Sara at the corner cafe, she told me about her move to Leipzig.'),
     ('2026-03-22T15:00', 'Long walk with Sara along the canal, we talked about her new job.'),
     ('2026-08-09T19:00', 'Sara came over for dinner, we ate on the balcony until it got dark.'),
     ('2026-11-08T10:00', 'Coffee with Sara at the bookshop on Elm Street; she lent me a novel.')]),
   ('work', 'have a stressful week at work', 'stressful week at work', [
     ('2025-09-26T21:00', 'A stressful week at work: the audit, late nights and a tense review with my manager.'),
     ('2026-04-17T20:00', 'Another stressful week at work, the release slipped twice and nobody slept.'),
     ('2026-11-20T20:00', 'Stressful week at work again, the project deadline moved forward by a week.')]),
   ('yoga', 'go to yoga', 'yoga class', [
     ('2026-01-12T19:00', 'First yoga class of the year, stiff and slow but calm afterwards.'),
     ('2026-07-06T19:00', 'Yoga in the park with the summer group, the grass was still warm.'),
     ('2026-11-23T19:00', 'Monday yoga class in the evening, felt calm and loose afterwards.'),
     ('2026-12-04T20:00', 'Yoga again tonight, then a long bath.')]),
 ]),
 ('t02', 'Omar', 'America/New_York', '2026-11-14T18:00', [
   ('run', 'go for a run', 'run', [
     ('2025-04-05T07:00', 'My first run in years: two miles around the reservoir, lungs burning.'),
     ('2025-11-27T08:00', 'Thanksgiving morning run with my brother before the turkey, cold and bright.'),
     ('2026-05-16T07:30', 'Ran the 10k along the river trail, a personal best by a minute.'),
     ('2026-10-24T08:00', 'A slow Saturday run in the fog along the river.'),
     ('2026-11-11T06:30', 'Short run before work, the streets still dark.')]),
   ('dad', 'call my dad', 'call with Dad', [
     ('2025-06-15T12:00', 'Called Dad for Father\'s Day, he talked about his garden for an hour.'),
     ('2026-02-08T17:00', 'Phoned my dad, he sounds tired since the surgery.'),
     ('2026-09-13T16:00', 'Long call with Dad about the old house and whether to sell it.'),
     ('2026-11-08T15:00', 'Called Dad, he finally agreed to see the new doctor.')]),
   ('cook', 'cook for friends', 'dinner party', [
     ('2025-10-18T19:00', 'Cooked biryani for six friends, the rice came out perfect.'),
     ('2026-03-14T19:00', 'Dinner party at mine: I cooked a lamb tagine and we played cards until late.'),
     ('2026-07-25T20:00', 'Cooked a big barbecue for the neighbours, too much corn left over.'),
     ('2026-11-07T19:30', 'Cooked pasta for friends, a quiet and happy evening.')]),
   ('dentist', 'go to the dentist', 'dentist appointment', [
     ('2025-08-12T09:00', 'Dentist appointment: one small filling, not as bad as I feared.'),
     ('2026-06-02T10:00', 'Back at the dentist for a cleaning, the hygienist scolded me about flossing.'),
     ('2026-11-03T09:30', 'Dentist again, the crown is finally in.')]),
 ]),
 ('t03', 'Aiko', 'Asia/Tokyo', '2026-12-01T21:00', [
   ('swim', 'go swimming', 'swim', [
     ('2025-07-20T10:00', 'First swim of the summer at the city pool, the water was freezing.'),
     ('2025-12-24T14:00', 'Christmas Eve swim at the heated pool, nearly empty.'),
     ('2026-04-11T09:00', 'Swimming lessons again: I can finally breathe on both sides.'),
     ('2026-08-15T08:00', 'Swam in the sea at Kamakura, big waves and a sunburn.'),
     ('2026-11-22T10:00', 'Sunday swim at the pool, forty lengths without stopping.')]),
   ('grandma', 'visit my grandmother', 'visit to Grandma', [
     ('2025-09-14T13:00', 'Visited Grandma in Nagano, she showed me her old photo albums.'),
     ('2026-01-02T12:00', 'New year visit to Grandma, we ate mochi and watched the snow.'),
     ('2026-05-05T12:00', 'Visited my grandmother for Children\'s Day, she made chirashi.'),
     ('2026-10-25T14:00', 'Visited Grandma at the care home, she knew my name today.')]),
   ('concert', 'go to a concert', 'concert', [
     ('2025-10-11T19:00', 'Jazz concert in Shinjuku with Ken, a saxophone solo that made me cry.'),
     ('2026-03-07T18:00', 'Went to the orchestra concert, Mahler five, my arms had goosebumps.'),
     ('2026-09-19T19:30', 'Rock concert at the Budokan, my ears are still ringing.')]),
   ('exam', 'have an exam', 'exam', [
     ('2026-02-03T09:00', 'Statistics exam this morning, I think I passed.'),
     ('2026-07-28T09:00', 'Exam in linear algebra, the last question was cruel.'),
     ('2026-11-26T09:00', 'Language exam, the listening part was fast.')]),
 ]),
 ('t04', 'Maria', 'America/Sao_Paulo', '2026-10-30T20:00', [
   ('beach', 'go to the beach', 'beach day', [
     ('2025-01-18T10:00', 'First beach day of the year at Guaruja, the sea was calm and green.'),
     ('2025-12-25T11:00', 'Christmas at the beach with the whole family, the kids built a huge castle.'),
     ('2026-02-14T10:00', 'Carnival weekend at the beach, crowded and loud and fun.'),
     ('2026-09-27T09:00', 'Beach in the morning, the water still a bit cold.')]),
   ('tomas', 'meet Tomas', 'time with Tomas', [
     ('2025-04-26T19:00', 'Met Tomas at the bar after work, he got engaged!'),
     ('2026-01-31T18:00', 'Saw Tomas and his fiancee for dinner, they are planning a June wedding.'),
     ('2026-06-20T16:00', 'Tomas\' wedding: I danced all night and cried at the vows.'),
     ('2026-10-17T19:00', 'Drinks with Tomas, he is going to be a father.')]),
   ('garden', 'work in the garden', 'gardening', [
     ('2025-09-06T09:00', 'Planted tomatoes and basil in the garden, my back hurts.'),
     ('2026-03-21T09:00', 'Garden work all morning, pulled weeds and trimmed the hedge.'),
     ('2026-08-02T09:00', 'Garden again: harvested the last peppers and turned the compost.'),
     ('2026-10-24T09:00', 'Saturday in the garden planting bulbs for spring.')]),
   ('doctor', 'see the doctor', 'doctor visit', [
     ('2025-11-10T14:00', 'Doctor visit about my knee, she sent me for an X-ray.'),
     ('2026-05-12T15:00', 'Saw the doctor again, the knee is healing well.'),
     ('2026-10-21T11:00', 'Doctor appointment for the flu shot and a chat about sleep.')]),
 ]),
 ('t05', 'Ben', 'Europe/London', '2026-12-10T19:00', [
   ('pub', 'go to the pub quiz', 'pub quiz', [
     ('2025-02-06T20:00', 'First pub quiz with the team from work, we came last but laughed a lot.'),
     ('2025-12-24T20:00', 'Christmas Eve pub quiz at the Red Lion, we won a tin of biscuits.'),
     ('2026-04-02T20:00', 'Pub quiz, we lost on the music round again.'),
     ('2026-09-17T20:00', 'Pub quiz night, second place and a free round of drinks.'),
     ('2026-12-03T20:00', 'Thursday pub quiz, a tie-break question about rivers lost it for us.')]),
   ('hike', 'go hiking', 'hike', [
     ('2025-05-24T09:00', 'Hiked up Snowdon with my sister, clouds at the top and no view.'),
     ('2026-03-29T10:00', 'Hike in the Peak District, muddy boots and a pub lunch.'),
     ('2026-08-22T08:00', 'Long hike on the coast path in Cornwall, seals in the cove.'),
     ('2026-11-29T10:00', 'Sunday hike in the frost on the South Downs.')]),
   ('mum', 'visit my mum', 'visit to Mum', [
     ('2025-08-10T12:00', 'Visited Mum in Bristol, she made her famous roast.'),
     ('2026-03-15T12:00', 'Mother\'s Day visit to Mum with flowers and a cake.'),
     ('2026-07-12T13:00', 'Drove down to see Mum, we fixed her fence together.'),
     ('2026-11-15T12:00', 'Visited Mum, she is thinking of moving closer to us.')]),
   ('cinema', 'go to the cinema', 'film', [
     ('2025-10-31T19:00', 'Halloween horror film at the cinema, I screamed twice.'),
     ('2026-05-08T19:00', 'Cinema with Priya, a long slow French film, lovely.'),
     ('2026-12-06T18:00', 'Saw the new sci-fi film at the cinema, great sound.')]),
 ]),
]

def at(s, z): return datetime.fromisoformat(s).replace(tzinfo=ZoneInfo(z))
def iso(d): return d.astimezone(timezone.utc).isoformat()
PAST = dict(go='went', have='had', see='saw', call='called', visit='visited', cook='cooked', meet='met', work='worked')
WD = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday']

def probes_for(say, name, occ, z, final):
    "Probes for one activity's occurrences `occ` [(episode id, local datetime)] oldest first: (episode id, expression kind, query, now)."
    out = []
    (first_id, _), (last_id, _) = occ[0], occ[-1]
    verb, rest = say.split(' ', 1)
    past = PAST[verb] + ' ' + rest
    out += [(first_id, 'first time', f'When was the first time I {past}?', final),
            (last_id, 'when did I last', f'When did I last {say}?', final),
            (last_id, 'most recent', f'Tell me about my most recent {name}.', final),
            (first_id, 'first time', f'Remind me of the first {name}.', final),
            (last_id, 'last time', f'What happened the last time I {past}?', final)]
    for k, (eid, d) in enumerate(occ):
        nxt = d + timedelta(days=1)
        out.append((eid, 'yesterday', f'Did I {say} yesterday?', nxt.replace(hour=21)))
        gap = 3 + k % 3
        out.append((eid, 'on <weekday>', f'What happened when I {past} on {WD[d.weekday()]}?' if k % 2 else f'Did I {say} on {WD[d.weekday()]}?', (d + timedelta(days=gap)).replace(hour=20)))
        if k % 2 == 0: out.append((eid, 'in <month> <year>', f'Did I {say} in {d:%B %Y}?', final))
        else: out.append((eid, 'N weeks ago', f'Did I {say} two weeks ago?', (d + timedelta(days=14)).replace(hour=20)))
        if d.weekday() >= 5: out.append((eid, 'last weekend', f'Did I {say} last weekend?', (d + timedelta(days=(7 - d.weekday()) + 1)).replace(hour=20)))
        else: out.append((eid, 'last week', f'Did I {say} last week?', (d + timedelta(days=(7 - d.weekday()) + 2)).replace(hour=20)))
        if d.month == 12 and d.day in (24, 25): out.append((eid, 'at Christmas', f'Did I {say} at Christmas?', final))
        a, b = d - timedelta(days=3), d + timedelta(days=2)
        if k == len(occ) // 2: out.append((eid, 'between two dates', f'Did I {say} between {a.day} {a:%B} and {b.day} {b:%B %Y}?', final))
        if k == 1: out.append((eid, 'a month ago', f'Did I {say} a month ago?', (d + timedelta(days=30)).replace(hour=20)))
    return out

def check(personas):
    "Every activity's occurrences are at least 7 days apart and in different weeks (so a week or a day names one of them), and each probe asks after its entry."
    for p in personas:
        by = {}
        for e in p['episodes']: by.setdefault(e['activity'], []).append(datetime.fromisoformat(e['date_time']).astimezone(ZoneInfo(p['time_zone'])))
        for key, ds in by.items():
            for a, b in zip(ds, ds[1:]):
                assert (b - a).days >= 7 and a.isocalendar()[:2] != b.isocalendar()[:2], (p['persona_id'], key, a, b)
        for e in p['episodes']:
            for q in e['probes']: assert q['now'] > e['date_time'], q

def build():
    personas, n = [], 0
    for pid, name, z, final_s, acts in PERSONAS:
        final = at(final_s, z)
        episodes = []
        for key, say, noun, occ in acts:
            ids = []
            for i, (ts, text) in enumerate(occ):
                eid = f'{pid}-{key}{i + 1}'; ids.append((eid, at(ts, z)))
                episodes.append(dict(id=eid, date_time=iso(at(ts, z)), text=text, activity=key, probes=[]))
            for eid, kind, query, now in probes_for(say, noun, ids, z, final):
                ep = next(e for e in episodes if e['id'] == eid)
                ep['probes'].append(dict(id=f'{eid}-{len(ep["probes"]) + 1}', type='temporal', expression=kind, query=query, now=iso(now)))
                n += 1
        episodes.sort(key=lambda e: e['date_time'])
        personas.append(dict(persona_id=pid, name=name, time_zone=z, reference_now=iso(final), episodes=episodes))
    check(personas)
    return dict(name='Persode temporal probes', version='1.0', license='CC BY 4.0',
                construction='make.py in this folder (deterministic); see README.md',
                stats=dict(personas=len(personas), episodes=sum(len(p['episodes']) for p in personas), probes=n), personas=personas)

if __name__ == '__main__':
    d = build()
    (Path(__file__).parent/'temporal_probes_v1.json').write_text(json.dumps(d, indent=1, ensure_ascii=False) + '\n', encoding='utf-8')
    print(d['stats'])
