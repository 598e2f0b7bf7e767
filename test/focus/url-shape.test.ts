import { describe, expect, it } from 'vitest';
import { hasForeignLanguageSegment, isEnglishHomeShape, locator, section } from '../../src/focus/url-shape.js';

describe('locator', () => {
    it('gives host and path words without www, the public suffix, the extension or the query', () => {
        expect(locator('https://www.cs.stanford.edu/people/faculty-list.html')).toBe('cs stanford people faculty list');
        expect(locator('https://www.ox.ac.uk/admissions/graduate_courses/')).toBe('ox admissions graduate courses');
        expect(locator('https://virtual.acl2020.org/papers.html?filter=keywords&search=machine+translation')).toBe('virtual acl 2020 papers');
    });

    it('splits letter/digit boundaries and decodes percent-encoded paths', () => {
        expect(locator('https://e.edu/courses/cs101')).toBe('e courses cs 101');
        expect(locator('https://www.tsinghua.edu.cn/%E7%95%99%E5%AD%A6%E7%94%9F/')).toBe('tsinghua 留学生');
    });

    it('splits camelCase path words where a lowercase letter meets a capital, not inside an acronym', () => {
        expect(locator('https://school.example/CollegeStaff/ScienceDept.aspx')).toBe('school College Staff Science Dept');
        expect(locator('https://school.example/about/CCAClubs/')).toBe('school about CCAClubs');
    });
});

describe('section', () => {
    it('recognises one-level section entries with a short anchor, also behind a language segment', () => {
        expect(section('https://e.edu/admissions/', 'Admissions')).toBe('section');
        expect(section('https://e.edu/en/studies/', 'Studies')).toBe('section');
        expect(section('https://e.edu/admissions/index.html', 'Admissions')).toBe('section');
        expect(section('https://e.edu/english/research/', 'Our research')).toBe('section');
    });

    it('recognises the root of a host as a sub-site', () => {
        expect(section('https://graduate.e.edu/', 'Graduate School')).toBe('subsite');
    });

    it('rejects deeper paths, queries, and anchors that are empty or longer than four words', () => {
        expect(section('https://e.edu/admissions/graduate/', 'Graduate')).toBeNull();
        expect(section('https://e.edu/admissions/?term=fall', 'Admissions')).toBeNull();
        expect(section('https://e.edu/admissions/', '')).toBeNull();
        expect(section('https://e.edu/admissions/', 'Read all about how to apply')).toBeNull();
    });
});

describe('language segments', () => {
    it('flags a first segment of another language', () => {
        expect(hasForeignLanguageSegment('https://e.edu/de/')).toBe(true);
        expect(hasForeignLanguageSegment('https://e.edu/zh-cn/news/')).toBe(true);
        expect(hasForeignLanguageSegment('https://e.edu/deutsch/studium')).toBe(true);
        expect(hasForeignLanguageSegment('https://e.edu/ja.html')).toBe(true);
    });

    it('does not flag English, deeper segments, or departments that look like codes', () => {
        expect(hasForeignLanguageSegment('https://e.edu/en/')).toBe(false);
        expect(hasForeignLanguageSegment('https://e.edu/courses/de/')).toBe(false);
        expect(hasForeignLanguageSegment('https://e.edu/cs/people')).toBe(false);
        expect(hasForeignLanguageSegment('https://e.edu/')).toBe(false);
    });

    it('recognises the shapes of an English home', () => {
        for (const url of ['https://e.cn/en/', 'https://e.cn/en.html', 'https://e.cn/top/en/', 'https://e.cn/english/', 'https://e.cn/en/index.html', 'https://en.e.cn/']) {
            expect(isEnglishHomeShape(url), url).toBe(true);
        }
        for (const url of ['https://e.cn/', 'https://e.cn/en/admissions/', 'https://e.cn/de/', 'https://e.cn/a/b/en/']) {
            expect(isEnglishHomeShape(url), url).toBe(false);
        }
    });
});
